// A model record (`catalogue.events`) can come from an incremental load with its unchanged entries made
// only when read (`execute/fast/load/incremental.ts`). Read one by one, each entry costs a lookup and a
// parse of its file on its own; a reader about to read every entry (the lint) says so first, and the
// loader makes them all in one pass. Without a registered reader this does nothing: the entries are
// then plain values, or made one by one as they are read, the same objects either way.

/** The loaders' ways to make every entry of a record at once, by record. */
const readers = new WeakMap<object, () => void>();

/** Registers how to make every entry of `record` at once (its loader; once per record). */
export function presetReadAll(record: object, readAll: () => void): void {
  readers.set(record, readAll);
}

/** Makes every entry of `record` now, in one pass, when its loader made them lazy; a no-op otherwise. */
export function readAllEntries(record: object): void {
  const readAll = readers.get(record);
  if (readAll === undefined) return;
  readers.delete(record);
  readAll();
}
