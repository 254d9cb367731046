import { deserialize, serialize } from 'node:v8';

// A worker thread receives the model as bytes. v8's serializer (structured clone) keeps key order,
// shared references and `undefined` values, but turns a null-prototype object into a plain one, where
// a user-given name such as `constructor` or `toString` would then read `Object.prototype`'s member.
// So the sender lists which objects had a null prototype, by their rank in one depth-first walk, and
// the receiver, walking its copy the same way, gives them a null prototype again.

/** A value as bytes another thread can read, null prototypes included (see `unpackValue`). */
export interface PackedValue {
  bytes: Uint8Array;
  /** Ranks, in `walkObjects` order, of the objects whose prototype was null. */
  nullPrototypes: number[];
}

/**
 * Packs `value` (plain data: objects, arrays, strings, numbers, booleans, null, undefined) once; the
 * bytes sit in shared memory, so every worker reads the same copy.
 */
export function packValue(value: unknown): PackedValue {
  const nullPrototypes: number[] = [];
  walkObjects(value, (object, rank) => {
    if (!Array.isArray(object) && Object.getPrototypeOf(object) === null) nullPrototypes.push(rank);
  });
  const serialized = serialize(value);
  const bytes = new Uint8Array(new SharedArrayBuffer(serialized.length));
  bytes.set(serialized);
  return { bytes, nullPrototypes };
}

/** The value `packValue` packed, with the same null-prototype objects. */
export function unpackValue<T>(packed: PackedValue): T {
  const value = deserialize(packed.bytes) as T;
  const wanted = new Set(packed.nullPrototypes);
  walkObjects(value, (object, rank) => {
    if (wanted.has(rank)) Object.setPrototypeOf(object, null);
  });
  return value;
}

/** Visits every object and array once (shared ones at their first place), depth first, in key order. */
function walkObjects(root: unknown, visit: (object: object, rank: number) => void): void {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    visit(value, seen.size - 1);
    const children = Array.isArray(value) ? value : Object.values(value);
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
}
