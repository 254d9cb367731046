import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import type { Catalogue } from '../model.js';
import { fieldRows } from './fields.js';

/** One searchable event version. */
interface SearchDocument {
  id: string;
  key: string;
  /** Only when it is not the key itself (indexing the key twice doubled the postings of every key term). */
  title?: string;
  fields: string;
  text: string;
  /** The start of `text`, stored (not indexed) for the result's snippet. */
  snippet?: string;
}

/** How much of an event's text the index stores for snippets: the index stays small at 10,000 events. */
const SNIPPET_CHARS = 300;

/**
 * The MiniSearch options: the browser loads the index with the same ones (they travel in the search
 * page's `data-options`, so the two never disagree).
 */
export const SEARCH_OPTIONS = {
  idField: 'id',
  fields: ['key', 'title', 'fields', 'text'],
  storeFields: ['key', 'title', 'fields', 'snippet'],
} as const satisfies Options<SearchDocument>;

/**
 * Terms are split at anything but letters, digits and `_`: a field name (`account_number`) stays one
 * term, so searching for it matches that field, not every event with an `account` and a `number` (on
 * 10k events that is the difference between hundreds and thousands of hits to rank). The browser
 * builds the same tokenizer from this pattern (`data-tokenize` on the search page).
 */
export const TOKEN_SEPARATOR = '[^\\p{L}\\p{N}_]+';

/** MiniSearch's tokenizer from TOKEN_SEPARATOR. */
function tokenize(text: string): string[] {
  return text.split(new RegExp(TOKEN_SEPARATOR, 'u')).filter((term) => term !== '');
}

/**
 * How the search page queries, as data: it travels to the browser in the search page's `data-query`,
 * and assets/search.js turns it into MiniSearch options exactly as `searchQueryOptions` does. Every
 * term must match, keys first; a term of `minPrefix` characters or more also matches as a prefix
 * (`revok` finds `revoked`). A shorter one matches whole terms only: a one-letter prefix matched almost
 * every event of a 10,000-event catalogue (`v` hits every `-v1`), and ranking all of them was the
 * worst case of the search.
 */
export const SEARCH_QUERY = {
  minPrefix: 2,
  fuzzy: 0.1,
  combineWith: 'AND',
  boost: { key: 3, fields: 2 },
} as const;

/** MiniSearch search options from SEARCH_QUERY (the search page builds the same in assets/search.js). */
export function searchQueryOptions(): SearchOptions {
  const { minPrefix, boost, ...rest } = SEARCH_QUERY;
  return { ...rest, boost: { ...boost }, prefix: (term: string) => term.length >= minPrefix };
}

/** The options to build or load the index with, in Node. */
export function searchOptions(): Options<SearchDocument> {
  return {
    ...SEARCH_OPTIONS,
    fields: [...SEARCH_OPTIONS.fields],
    storeFields: [...SEARCH_OPTIONS.storeFields],
    tokenize,
  };
}

/**
 * The serialised MiniSearch index over every event version: its key, title, field paths (nested ones
 * too) and the event's and its fields' descriptions. Built once here; the search page only loads it.
 */
export function searchIndexJson(catalogue: Catalogue): string {
  const search = new MiniSearch<SearchDocument>(searchOptions());
  for (const key of Object.keys(catalogue.events).sort()) {
    const event = catalogue.events[key]!;
    const rows = fieldRows(catalogue, event.fields);
    const text = [event.description ?? '', ...rows.map((row) => row.description ?? '')]
      .filter(Boolean)
      .join(' ');
    search.add({
      id: key,
      key,
      ...(event.title === key ? {} : { title: event.title }),
      fields: [...new Set(rows.map((row) => row.name))].join(' '),
      text,
      ...(text ? { snippet: text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}…` : text } : {}),
    });
  }
  return JSON.stringify(search);
}
