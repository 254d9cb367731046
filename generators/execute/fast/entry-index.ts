import type { ExistingFile } from './emit-context.js';

// Where each deferred entry of a document file is, as the emit cache keeps it, and the 96-bit ids that
// tell whether the last build's text of an entry can be copied (see document-text.ts).

/**
 * The two files' indexes as the cache keeps them. The YAML file's entries are the JSON file's, in the
 * same order, under the same ids and never first (see `EntryIds`): its ids are kept once, and the
 * next build reads them from the JSON file's index (`readIndex`).
 */
export function keptIndexes(json: FileIndex | undefined, yaml: FileIndex | undefined): unknown[] {
  if (json === undefined || yaml === undefined || !idsInStep(json, yaml)) return [json, yaml];
  const { ids: _ids, firsts: _firsts, ...rest } = yaml;
  return [json, { ...rest, idsOfJson: true }];
}

/** Whether `yaml`'s entries are `json`'s, none of them first. */
function idsInStep(json: FileIndex, yaml: FileIndex): boolean {
  if (json.ids.length !== yaml.ids.length || yaml.firsts.length > 0) return false;
  for (let i = 0; i < json.ids.length; i++) if (json.ids[i] !== yaml.ids[i]) return false;
  return true;
}

/**
 * Where each deferred entry is in a document file, in the order written: entry `i` has the id
 * `ids[3i..3i + 2]` (see `EntryIds`) and spans the bytes from `spans[2i]` to `spans[2i + 1]`; and the
 * digest of the whole file. Typed arrays, not an id string per entry: strings were read, deserialised,
 * joined and written again on every edit (see docs/decisions/0006).
 */
export interface FileIndex {
  digest: string;
  ids: Uint32Array;
  spans: Float64Array;
  /** The entries first in their JSON map (whose bytes start with `{`), ascending. */
  firsts: Uint32Array;
  /** The file's stamp (shared/fs.ts `fileStamp`) as the output holds it, when the sink could tell. */
  stamp?: string;
}

/** The cache's index of file `n` (0: JSON, 1: YAML) as the last build kept it, if it is whole and well-formed. */
export function readIndex(kept: unknown, n: number): FileIndex | undefined {
  const index = Array.isArray(kept)
    ? (kept[n] as (Partial<FileIndex> & { idsOfJson?: boolean }) | undefined)
    : undefined;
  if (index === undefined || typeof index.digest !== 'string') return undefined;
  if (index.stamp !== undefined && typeof index.stamp !== 'string') return undefined;
  let { ids, firsts } = index;
  if (index.idsOfJson === true) {
    const json = readIndex(kept, 0);
    if (json === undefined) return undefined;
    ids = json.ids;
    firsts = new Uint32Array(0);
  }
  const { spans } = index;
  if (!(ids instanceof Uint32Array) || !(spans instanceof Float64Array) || !(firsts instanceof Uint32Array))
    return undefined;
  if (ids.length !== 3 * (spans.length / 2) || spans.length % 2 !== 0) return undefined;
  return {
    digest: index.digest,
    ids,
    spans,
    firsts,
    ...(index.stamp === undefined ? {} : { stamp: index.stamp }),
  };
}

/** The file the last build wrote, as the output still holds it, and where its entries are. */
export interface OldFile {
  file: ExistingFile;
  index: FileIndex;
  /** Where the next entry is looked for first: entries come in the order they were written. */
  cursor: number;
  /** Every entry's rank by id, made at the first entry not found at the cursor (see `rankOf`). */
  ranks?: Map<number, number>;
  /** `firsts` as a set of ranks. */
  firstRanks?: Set<number>;
}

/**
 * The ids and spans of a file's entries as they are written, in typed arrays that grow by doubling.
 * An entry's id is three 32-bit hashes: of its place (its YAML indent, which names the map it is in,
 * and its key) and, twice over, of its `Deferred`'s digest; with whether it is the first of its JSON
 * map (whose bytes start with `{` instead of `,`). An entry is copied only when all of them match: 96
 * bits, where one entry's changed digest has a 2^-64 chance of passing for its old one.
 */
export class EntryIds {
  private ids: Uint32Array;
  private spans: Float64Array;
  private readonly firsts: number[] = [];
  private count = 0;
  constructor(expected: number) {
    const capacity = Math.max(16, expected + 16);
    this.ids = new Uint32Array(3 * capacity);
    this.spans = new Float64Array(2 * capacity);
  }
  add(place: number, what0: number, what1: number, first: boolean, start: number, end: number): void {
    if (2 * this.count === this.spans.length) {
      const ids = new Uint32Array(2 * this.ids.length);
      ids.set(this.ids);
      this.ids = ids;
      const spans = new Float64Array(2 * this.spans.length);
      spans.set(this.spans);
      this.spans = spans;
    }
    const i = this.count++;
    this.ids[3 * i] = place;
    this.ids[3 * i + 1] = what0;
    this.ids[3 * i + 2] = what1;
    this.spans[2 * i] = start;
    this.spans[2 * i + 1] = end;
    if (first) this.firsts.push(i);
  }
  clear(): void {
    this.count = 0;
    this.firsts.length = 0;
  }
  /** The index's arrays: views of what was written (the cache copies them when it keeps them). */
  index(): Pick<FileIndex, 'ids' | 'spans' | 'firsts'> {
    return {
      ids: this.ids.subarray(0, 3 * this.count),
      spans: this.spans.subarray(0, 2 * this.count),
      firsts: Uint32Array.from(this.firsts),
    };
  }
}

/** Whether the old file's entry `rank` has the id given. */
export function sameId(
  old: OldFile,
  rank: number,
  place: number,
  what0: number,
  what1: number,
  first: boolean,
): boolean {
  const { ids } = old.index;
  return (
    ids[3 * rank] === place &&
    ids[3 * rank + 1] === what0 &&
    ids[3 * rank + 2] === what1 &&
    isFirst(old, rank) === first
  );
}

/** Whether the old file's entry `rank` was the first of its JSON map. */
export function isFirst(old: OldFile, rank: number): boolean {
  const { firsts } = old.index;
  if (firsts.length === 0) return false;
  old.firstRanks ??= new Set(firsts);
  return old.firstRanks.has(rank);
}

/**
 * The rank of the old file's entry with the id given, if any: by a map of every entry made at the first
 * lookup, keyed by 53 bits of the id (a key two entries share is looked up in neither: rebuilt, not
 * copied).
 */
export function rankOf(
  old: OldFile,
  place: number,
  what0: number,
  what1: number,
  first: boolean,
): number | undefined {
  if (old.ranks === undefined) {
    const ranks = new Map<number, number>();
    const { ids } = old.index;
    for (let rank = 0; rank < ids.length / 3; rank++) {
      const key = rankKey(ids[3 * rank]!, ids[3 * rank + 1]!);
      ranks.set(key, ranks.has(key) ? -1 : rank);
    }
    old.ranks = ranks;
  }
  const rank = old.ranks.get(rankKey(place, what0));
  return rank !== undefined && rank >= 0 && sameId(old, rank, place, what0, what1, first) ? rank : undefined;
}

function rankKey(place: number, what0: number): number {
  return place * 2 ** 21 + (what0 >>> 11);
}

/** FNV-1a (32 bits) of `text`, continuing from `hash`. */
function fnv1a(text: string, hash = 0x811c9dc5): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The hash of an entry's place: its YAML indent (the map it is in) and its key. */
export function placeHash(indent: number, key: string): number {
  return fnv1a(key, Math.imul(0x811c9dc5 ^ indent, 0x01000193));
}

/** The first hash of a `Deferred`'s digest. */
export function digestHash0(digest: string): number {
  return fnv1a(digest);
}

/** The second hash of a `Deferred`'s digest, of another construction than the first (murmur3's mix). */
export function digestHash1(digest: string): number {
  let h = 0x9747b28c;
  for (let i = 0; i < digest.length; i++) {
    let k = Math.imul(digest.charCodeAt(i), 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h = Math.imul(((h ^ k) << 13) | ((h ^ k) >>> 19), 5) + 0xe6546b64;
  }
  h ^= digest.length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
