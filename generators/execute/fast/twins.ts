import type { EmitCache } from './emit-context.js';

/**
 * The fast executor's twins that can be turned off one by one, for `npm run bench -- twins` (see
 * docs/decisions/0080): the output is the same byte for byte either way, only the time differs.
 */
export type FastTwin = 'threads' | 'emit-cache' | 'document-copy' | 'quick-plan' | 'bulk-sync';

/** Every twin `FastOptions.off` can name. */
export const FAST_TWINS: readonly FastTwin[] = [
  'threads',
  'emit-cache',
  'document-copy',
  'quick-plan',
  'bulk-sync',
];

/** The emit cache's units that hold what the catalogue documents copy entries from (document-text.ts). */
const isDocumentUnit = (unit: string) => unit.startsWith('document-');

/**
 * The emit cache as a build with the twins `off` may use it: without `emit-cache` no group package or
 * source hash is memoised (only the documents' entry indexes stay); without `document-copy` nothing
 * changes here (the documents are then the pure emitters', which never ask).
 */
export function cacheWithout(
  cache: EmitCache | undefined,
  off: ReadonlySet<FastTwin>,
): EmitCache | undefined {
  if (!cache || !off.has('emit-cache')) return cache;
  const { recall, keep } = cache;
  return {
    get: () => undefined,
    set: () => {},
    ...(recall ? { recall: (unit: string) => (isDocumentUnit(unit) ? recall(unit) : undefined) } : {}),
    ...(keep
      ? {
          keep: (unit: string, value: unknown) => {
            if (isDocumentUnit(unit)) keep(unit, value);
          },
        }
      : {}),
  };
}
