// The search page imports MiniSearch from the copy the site ships beside it (assets/minisearch.js).

export type { SearchResult } from 'minisearch';
export { default } from 'minisearch';
