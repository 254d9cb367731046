import type { Catalogue } from '../model.js';
import { type DiffOptions, diffCatalogues } from './diff.js';
import type { Finding } from './rule.js';
import { classifyChanges } from './rules/index.js';

export type { DiffOptions } from './diff.js';
export type { Finding } from './rule.js';

/** Both stages: the classified findings between two catalogues, by event key, then in diff order. */
export function compareCatalogues(before: Catalogue, after: Catalogue, options?: DiffOptions): Finding[] {
  return classifyChanges(diffCatalogues(before, after, options));
}
