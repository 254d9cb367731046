import { type EmitCache, SOURCE_HASHES_UNIT } from './emit-context.js';

/**
 * The fast executor's twins that can be turned off one by one, for `npm run bench -- twins` (see
 * docs/decisions/0080): the output is the same byte for byte either way, only the time differs.
 */
export type FastTwin =
  | 'threads'
  | 'emit-cache'
  | 'source-hashes'
  | 'document-copy'
  | 'quick-plan'
  | 'bulk-sync';

/** Every twin `FastOptions.off` can name. */
export const FAST_TWINS: readonly FastTwin[] = [
  'threads',
  'source-hashes',
  'document-copy',
  'quick-plan',
  'bulk-sync',
];

/**
 * The emit cache as a build with the twins `off` may use it: without `source-hashes` no group's source
 * hash is taken from the last build's. What the catalogue documents copy entries from stays
 * (`document-copy` turns the documents' writer off instead: the pure emitters never ask the cache).
 */
export function cacheWithout(
  cache: EmitCache | undefined,
  off: ReadonlySet<FastTwin>,
): EmitCache | undefined {
  if (!cache || !off.has('source-hashes')) return cache;
  const recall = cache.recall?.bind(cache);
  const keep = cache.keep?.bind(cache);
  const kept = (unit: string) => unit !== SOURCE_HASHES_UNIT;
  return {
    ...(recall ? { recall: (unit: string) => (kept(unit) ? recall(unit) : undefined) } : {}),
    ...(keep
      ? {
          keep: (unit: string, value: unknown) => {
            if (kept(unit)) keep(unit, value);
          },
        }
      : {}),
  };
}
