import MiniSearch, { type Options } from 'minisearch';
import type { Catalogue } from '../model.js';
import { fieldRows } from './fields.js';

/** One searchable event version. */
interface SearchDocument {
  id: string;
  key: string;
  title: string;
  fields: string;
  text: string;
}

/**
 * The MiniSearch options: the browser loads the index with the same ones (they travel in the search
 * page's `data-options`, so the two never disagree).
 */
export const SEARCH_OPTIONS = {
  idField: 'id',
  fields: ['key', 'title', 'fields', 'text'],
  storeFields: ['key', 'title'],
} as const satisfies Options<SearchDocument>;

/**
 * The serialised MiniSearch index over every event version: its key, title, field paths (nested ones
 * too) and the event's and its fields' descriptions. Built once here; the search page only loads it.
 */
export function searchIndexJson(catalogue: Catalogue): string {
  const search = new MiniSearch<SearchDocument>({
    ...SEARCH_OPTIONS,
    fields: [...SEARCH_OPTIONS.fields],
    storeFields: [...SEARCH_OPTIONS.storeFields],
  });
  for (const key of Object.keys(catalogue.events).sort()) {
    const event = catalogue.events[key]!;
    const rows = fieldRows(catalogue, event.fields);
    search.add({
      id: key,
      key,
      title: event.title,
      fields: [...new Set(rows.map((row) => row.name))].join(' '),
      text: [event.description ?? '', ...rows.map((row) => row.description ?? '')].filter(Boolean).join(' '),
    });
  }
  return JSON.stringify(search);
}
