import { deserialize, serialize } from 'node:v8';
import type { Catalogue, EventVersion } from '../../model.js';
import { type ModelDigests, rememberDigest } from '../../model-digest.js';

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

/**
 * A catalogue packed for the build's threads: the model without its events (`head`), then each group's
 * events apart, so that a thread unpacks only the groups it generates, when a task first needs them
 * (unpacking the whole model delayed each thread's first task: see docs/decisions/0005, 0101).
 * Objects the model
 * shares between two groups' events (or with a shape) arrive as equal copies.
 */
export interface PackedCatalogue {
  head: PackedValue;
  /** Every event key, in the model's order, and the chunk that holds each. */
  keys: string[];
  chunkOf: number[];
  /** Each group's events as one null-prototype record by key. */
  chunks: PackedValue[];
  /** All the packed bytes (what a thread's heap is sized from). */
  bytes: number;
}

/** Packs `model` for the build's threads (`ThreadCatalogue`). */
export function packCatalogue(model: Catalogue): PackedCatalogue {
  const keys = Object.keys(model.events);
  const chunkOf: number[] = [];
  const records: Record<string, EventVersion>[] = [];
  const chunkOfGroup = new Map<string, number>();
  for (const key of keys) {
    const event = model.events[key]!;
    let chunk = chunkOfGroup.get(event.group);
    if (chunk === undefined) {
      chunk = records.push(Object.create(null)) - 1;
      chunkOfGroup.set(event.group, chunk);
    }
    records[chunk]![key] = event;
    chunkOf.push(chunk);
  }
  const events = Object.getPrototypeOf(model.events) === null ? Object.create(null) : {};
  const head = packValue({ ...model, events });
  const chunks = records.map(packValue);
  const bytes = chunks.reduce((sum, chunk) => sum + chunk.bytes.byteLength, head.bytes.byteLength);
  return { head, keys, chunkOf, chunks, bytes };
}

/**
 * The catalogue `packCatalogue` packed, as a build thread holds it: each group's events unpacked when a
 * task first needs them, with the digests the sending thread knew (`knownDigests`), so that none is
 * computed again. What it hands out is plain data: the whole model (`whole`, for the catalogue-wide
 * emitters), or the model cut to one group's events (`ofGroup`, for that group's package).
 */
export class ThreadCatalogue {
  private readonly head: Catalogue;
  /** Each key's rank in `packed.keys`. */
  private readonly rankOf = new Map<string, number>();
  /** Each chunk's keys by their rank in `packed.keys`. */
  private readonly ranksOf: number[][];
  /** The chunks unpacked so far. */
  private readonly chunks = new Map<number, Record<string, EventVersion>>();
  private wholeModel: Catalogue | undefined;

  constructor(
    private readonly packed: PackedCatalogue,
    private readonly known?: ModelDigests,
  ) {
    this.head = unpackValue<Catalogue>(packed.head);
    this.ranksOf = packed.chunks.map(() => []);
    packed.keys.forEach((key, rank) => {
      this.rankOf.set(key, rank);
      this.ranksOf[packed.chunkOf[rank]!]!.push(rank);
    });
    Object.values(this.head.shapes).forEach((shape, i) => {
      const digest = known?.shapes[i];
      if (digest !== undefined) rememberDigest(shape, digest);
    });
  }

  /** The whole model, every group's events unpacked. */
  whole(): Catalogue {
    this.wholeModel ??= this.withEvents(this.packed.keys);
    return this.wholeModel;
  }

  /**
   * The model with the events of group `slug` only (its `groups` whole): a group package reads no other
   * group's event (an alias or an extending interface names one of its own group only).
   */
  ofGroup(slug: string): Catalogue {
    if (this.wholeModel) return this.wholeModel;
    const group = this.head.groups.find((candidate) => candidate.slug === slug);
    const keys = new Set(group?.events ?? []);
    return this.withEvents(this.packed.keys.filter((key) => keys.has(key)));
  }

  /** The head with the events of `keys` (in the model's order), their chunks unpacked. */
  private withEvents(keys: readonly string[]): Catalogue {
    const events: Record<string, EventVersion> =
      Object.getPrototypeOf(this.head.events) === null ? Object.create(null) : {};
    for (const key of keys) {
      const rank = this.rankOf.get(key)!;
      const value = this.chunk(this.packed.chunkOf[rank]!)[key]!;
      Object.defineProperty(events, key, { value, writable: true, enumerable: true, configurable: true });
    }
    return { ...this.head, events };
  }

  private chunk(index: number): Record<string, EventVersion> {
    let record = this.chunks.get(index);
    if (record === undefined) {
      record = unpackValue<Record<string, EventVersion>>(this.packed.chunks[index]!);
      for (const rank of this.ranksOf[index]!) {
        const digest = this.known?.events[rank];
        if (digest !== undefined) rememberDigest(record[this.packed.keys[rank]!]!, digest);
      }
      this.chunks.set(index, record);
    }
    return record;
  }
}
