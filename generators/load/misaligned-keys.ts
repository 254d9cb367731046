import { type Document, isScalar, visit } from 'yaml';

/**
 * Where to report yaml's "All mapping items must start at the same column" errors, each given at the
 * key it flags. yaml measures a mapping from its first key, so when that first key is the one out of
 * line, every other key is flagged. Then the first key alone is reported (by the first flagged key's
 * offset); the others map to undefined. Any other flagged key is reported where it is.
 */
export function placeMisalignedKeys(
  doc: Document,
  flagged: readonly number[],
  column: (offset: number) => number,
): Map<number, number | undefined> {
  const placed = new Map<number, number | undefined>(flagged.map((offset) => [offset, offset]));
  const wanted = new Set(flagged);
  visit(doc, {
    Map(_key, map) {
      const keys = map.items.map((pair) => (isScalar(pair.key) ? pair.key.range?.[0] : undefined));
      const [first, ...rest] = keys;
      if (
        first === undefined ||
        rest.length < 2 ||
        !rest.every((offset) => offset !== undefined && wanted.has(offset))
      )
        return;
      const columns = new Set(rest.map((offset) => column(offset!)));
      if (columns.size !== 1 || columns.has(column(first))) return;
      placed.set(rest[0]!, first);
      for (const offset of rest.slice(1)) placed.set(offset!, undefined);
    },
  });
  return placed;
}
