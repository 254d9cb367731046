import MiniSearch from 'minisearch';
import type { Catalogue, EventVersion } from '../model.js';
import { fieldRows } from './fields.js';
import { indexOptions, type SearchDocument } from './search-query.js';

/** How much of an event's text the index stores for snippets: the index stays small at 10,000 events. */
const SNIPPET_CHARS = 300;

/** The indexed document of one event version (see SearchDocument for what each part holds). */
function searchDocument(
  catalogue: Catalogue,
  event: EventVersion,
  groupTitles: Map<string, string>,
): SearchDocument {
  const rows = fieldRows(catalogue, event.fields);
  const shapes = [
    ...new Set(rows.flatMap((row) => [row.expands, row.recursive].filter((name) => name !== undefined))),
  ];
  const names = [...new Set(rows.map((row) => row.name))].join(' ');
  const text = [
    event.description ?? '',
    ...rows.map((row) => row.description ?? ''),
    ...shapes.map((name) => catalogue.shapes[name]?.description ?? ''),
  ]
    .filter(Boolean)
    .join(' ');
  return {
    id: event.key,
    key: event.key,
    // Only a title that is not the key itself (indexing the key twice doubled every key term's postings).
    ...(event.title === event.key ? {} : { title: event.title }),
    group: groupTitles.get(event.group) ?? '',
    fields: names,
    names: `${names} ${shapes.join(' ')}`,
    paths: [...new Set(rows.map((row) => row.path))].join(' '),
    shapes: shapes.join(' '),
    text,
    ...(text ? { snippet: text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}…` : text } : {}),
  };
}

/**
 * The MiniSearch index over every event version: its key, title, group, field paths (nested ones too),
 * the shapes it uses and the descriptions, terms as search-query.ts makes them. MCP searches it as
 * built; the portal serialises it once (searchIndexJson) and the search page only loads it.
 */
export function buildSearchIndex(catalogue: Catalogue): MiniSearch<SearchDocument> {
  const search = new MiniSearch<SearchDocument>(indexOptions());
  const groupTitles = new Map(catalogue.groups.map((group) => [group.slug, group.title]));
  for (const key of Object.keys(catalogue.events).sort())
    search.add(searchDocument(catalogue, catalogue.events[key]!, groupTitles));
  return search;
}

/** The serialised index the portal ships (assets/search-index.json). */
export function searchIndexJson(catalogue: Catalogue): string {
  return JSON.stringify(buildSearchIndex(catalogue));
}
