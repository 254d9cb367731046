import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { LocatedNode, PlainYaml } from '../../../load/yaml-source.js';
import { writeAtomically } from '../../../shared/fs.js';
import { textDigest } from './text-digest.js';

// Parses kept between processes, by each file's text (docs/decisions/0010-load-accelerators.md). The
// located trees are stored flat and rebuilt one mapping at a time, as the loader asks for locations:
// v8 deserialising a Map per mapping costs about what parsing does.

/** The cache's file in the cache folder. */
export const PARSE_CACHE_FILE = 'parse.v8';
/**
 * The entries made or changed since `PARSE_CACHE_FILE` was last written whole: an edit of one file
 * writes this small file instead of rewriting every file's entry.
 */
export const PARSE_DELTA_FILE = 'parse-delta.v8';
/** Entries the delta file holds at most; past them the whole file is written again and the delta goes. */
const DELTA_LIMIT = 64;
/** Names this layout; a file with any other (an older toolkit's, another program's) is ignored. */
const FORMAT = 'eventry-parse-cache/2';
/** The file starts with the sha256 of the rest, so a damaged or truncated file is never read as entries. */
const CHECKSUM_BYTES = 32;

/**
 * One file's parse as stored: its value as JSON text and its located tree flattened into `nodes`. A
 * scalar is `[SCALAR, offset]`; a sequence `[SEQUENCE, offset, count, end]` then its items; a mapping
 * `[MAPPING, offset, count, end]` then, per entry, `[key offset, index in names]` and the value's node.
 * `end` is the index after the collection's last node, so that a lookup skips whole subtrees.
 */
interface StoredParse {
  json: string;
  nodes: Int32Array;
  names: string[];
  /** The parse passed the catalogue file-shape check (`load/check-shape.ts`), a function of it alone. */
  shapeChecked?: true;
}

const SCALAR = 0;
const MAPPING = 1;
const SEQUENCE = 2;

/**
 * The fast path's parses kept between processes (in the project's `.eventry/cache/`), by the sha256 of
 * each file's text, for one toolkit fingerprint: another toolkit's file is not read, so a changed parser
 * never reuses an old parse. The files are read whole on the first lookup. At `save`, only if a file
 * missed (or was marked): up to `DELTA_LIMIT` new or marked entries go to the small delta file, while
 * at most an eighth of the whole file's entries went unused (files removed, or changed since); past
 * that the whole file is written again with the files read since the last `save` (one load's), so
 * entries of files no longer in the catalogue drop out, and the delta goes. Entries are keyed by their
 * text's digest, so any mix of the two files is correct. A file that cannot be read or written only
 * costs the parse.
 */
export class ParseCache {
  private stored: Map<string, StoredParse> | undefined;
  /** The digests `stored` has from the delta file (`PARSE_DELTA_FILE`) of this cache's folder. */
  private fromDelta = new Set<string>();
  /** What the load read since the last `save`, hit or missed: the next file's entries. */
  private readonly used = new Map<string, StoredParse>();
  /** The digests of the entries this load made or marked: they go to the delta file (or the whole file). */
  private readonly changed = new Set<string>();
  /** The digests of this folder's whole file (a delta only adds to it): none when it was not there. */
  private baseDigests: ReadonlySet<string> = new Set();
  /** Each text's entry and digest as `read` found them, for `shapeChecked` and `passedShapeCheck`. */
  private readonly entries = new Map<string, { entry: StoredParse; digest: string }>();

  constructor(
    private readonly dir: string,
    private readonly tool: string,
    /**
     * `readOnly`: use the file as it is, never write it (a reader that should not pay for storing).
     * `alsoFrom`: more cache folders whose files are read too (another project's, for a side of a
     * `diff`); only `dir`'s is ever written.
     */
    private readonly options: { readOnly?: boolean; alsoFrom?: readonly string[] } = {},
  ) {}

  /** The parse of `text`: the stored one, else `parse(text)` (remembered for `save` when it is plain). */
  read(text: string, parse: (text: string) => PlainYaml | undefined): PlainYaml | undefined {
    const digest = textDigest(text);
    const stored = this.storedEntries().get(digest) ?? this.used.get(digest);
    const restored = stored ? restoreParse(stored) : undefined;
    if (restored) {
      this.used.set(digest, stored!);
      this.entries.set(text, { entry: stored!, digest });
      return restored;
    }
    const plain = parse(text);
    if (this.options.readOnly) return plain;
    const flat = plain ? storeParse(text, plain) : undefined;
    if (flat) {
      this.used.set(digest, flat);
      this.entries.set(text, { entry: flat, digest });
      this.changed.add(digest);
    }
    return plain;
  }

  /** Whether the parse of `text`, as `read` returned it, passed the file-shape check in a load before. */
  shapeChecked(text: string): boolean {
    return this.entries.get(text)?.entry.shapeChecked === true;
  }

  /** Records that the parse of `text` passed the file-shape check: kept by `save`, so the next load skips it. */
  passedShapeCheck(text: string): void {
    const found = this.entries.get(text);
    if (found === undefined || found.entry.shapeChecked) return;
    found.entry.shapeChecked = true;
    // A read-only cache keeps it for its own next load only.
    this.changed.add(found.digest);
  }

  /**
   * Writes the delta file, or the whole file again, when some file missed or was marked (atomically: a
   * concurrent build reads one whole file; never `readOnly`, which keeps its entries for the next
   * load), then lets go of the entries: a build holds its options, and so this cache, until it ends.
   * A later load reads the files again.
   */
  save(): void {
    // A reader keeps what it read: the next load (the other side of a diff) looks up the same file.
    if (this.options.readOnly) return;
    const entries = new Map(this.used);
    const fromDelta = this.fromDelta;
    const changed = new Set(this.changed);
    const baseDigests = this.baseDigests;
    this.stored = undefined;
    this.fromDelta = new Set();
    this.baseDigests = new Set();
    this.used.clear();
    this.changed.clear();
    this.entries.clear();
    if (changed.size === 0) return;
    // The delta: this load's new and marked entries, and the last delta's that it still used.
    const delta = new Map<string, StoredParse>();
    for (const [digest, entry] of entries) {
      if (changed.has(digest) || fromDelta.has(digest)) delta.set(digest, entry);
    }
    // Entries of the whole file this load did not use: files removed, or changed since it was written.
    let stale = 0;
    for (const digest of baseDigests) if (!entries.has(digest)) stale++;
    const bounded = stale * 8 <= baseDigests.size;
    try {
      if (delta.size <= DELTA_LIMIT && baseDigests.size > 0 && bounded) {
        writeEntries(join(this.dir, PARSE_DELTA_FILE), this.tool, delta);
      } else {
        writeEntries(join(this.dir, PARSE_CACHE_FILE), this.tool, entries);
        rmSync(join(this.dir, PARSE_DELTA_FILE), { force: true });
      }
    } catch (error) {
      // A read-only or full disk, a folder in the way: the next build parses again, the output is unaffected.
      if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    }
  }

  private storedEntries(): Map<string, StoredParse> {
    if (!this.stored) {
      this.stored = readEntries(join(this.dir, PARSE_CACHE_FILE), this.tool);
      this.baseDigests = new Set(this.stored.keys());
      // The delta's entries replace the whole file's (an entry marked since is the same parse, marked).
      for (const [digest, entry] of readEntries(join(this.dir, PARSE_DELTA_FILE), this.tool)) {
        this.stored.set(digest, entry);
        this.fromDelta.add(digest);
      }
      for (const dir of this.options.alsoFrom ?? []) {
        if (dir === this.dir) continue;
        for (const file of [PARSE_CACHE_FILE, PARSE_DELTA_FILE]) {
          for (const [digest, entry] of readEntries(join(dir, file), this.tool)) {
            if (!this.stored.has(digest)) this.stored.set(digest, entry);
          }
        }
      }
    }
    return this.stored;
  }
}

/** Writes `entries` for `tool` at `path` (atomically, after the sha256 of the rest). */
function writeEntries(path: string, tool: string, entries: Map<string, StoredParse>): void {
  const payload = serialize({ format: FORMAT, tool, entries });
  const checksum = createHash('sha256').update(payload).digest();
  writeAtomically(path, Buffer.concat([checksum, payload]));
}

/** The entries of the cache file at `path` for `tool`; none if it is absent, damaged or not ours. */
function readEntries(path: string, tool: string): Map<string, StoredParse> {
  try {
    const bytes = readFileSync(path);
    const payload = bytes.subarray(CHECKSUM_BYTES);
    const checksum = createHash('sha256').update(payload).digest();
    if (bytes.length < CHECKSUM_BYTES || !checksum.equals(bytes.subarray(0, CHECKSUM_BYTES)))
      return new Map();
    const data = deserialize(payload) as { format?: unknown; tool?: unknown; entries?: unknown };
    if (data?.format !== FORMAT || data.tool !== tool || !(data.entries instanceof Map)) return new Map();
    return data.entries as Map<string, StoredParse>;
  } catch {
    // Absent, unreadable or not v8 data: start empty; `save` replaces it.
    return new Map();
  }
}

/** The stored form of a parse; `undefined` for a value JSON cannot carry (`-0`, read from `-0.0`). */
function storeParse(text: string, plain: PlainYaml): StoredParse | undefined {
  let exact = true;
  // Only a plain scalar `-0.0…` reads as -0; a replacer on every file would double the cost of storing.
  const json = text.includes('-0.')
    ? JSON.stringify(plain.value, (_key, value: unknown) => {
        if (Object.is(value, -0)) exact = false;
        return value;
      })
    : JSON.stringify(plain.value);
  if (!exact || json === undefined) return undefined;
  const nodes: number[] = [];
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  const flatten = (node: LocatedNode): void => {
    const at = nodes.length;
    if (node.entries) {
      nodes.push(MAPPING, node.offset, node.entries.size, 0);
      for (const [name, entry] of node.entries) {
        let index = nameIndex.get(name);
        if (index === undefined) {
          index = names.push(name) - 1;
          nameIndex.set(name, index);
        }
        nodes.push(entry.key, index);
        flatten(entry.value);
      }
      nodes[at + 3] = nodes.length;
    } else if (node.items) {
      nodes.push(SEQUENCE, node.offset, node.items.length, 0);
      for (const item of node.items) flatten(item);
      nodes[at + 3] = nodes.length;
    } else {
      nodes.push(SCALAR, node.offset);
    }
  };
  flatten(plain.root);
  return { json, nodes: Int32Array.from(nodes), names };
}

/** The parse back from its stored form; `undefined` when the entry is not one `storeParse` wrote. */
function restoreParse(stored: StoredParse): PlainYaml | undefined {
  if (
    typeof stored?.json !== 'string' ||
    !(stored.nodes instanceof Int32Array) ||
    !Array.isArray(stored.names) ||
    !validTree(stored.nodes, stored.names.length)
  )
    return undefined;
  try {
    return { value: JSON.parse(stored.json), root: new StoredNode(stored, 0) };
  } catch {
    return undefined;
  }
}

/** Whether `nodes` is one well-formed tree: every lookup `StoredNode` makes stays inside it. */
function validTree(nodes: Int32Array, names: number): boolean {
  const end = (at: number): number => {
    const kind = nodes[at];
    if (kind === SCALAR) return at + 2 <= nodes.length ? at + 2 : -1;
    if (kind !== MAPPING && kind !== SEQUENCE) return -1;
    const count = nodes[at + 2]!;
    const last = nodes[at + 3]!;
    if (at + 4 > nodes.length || last > nodes.length) return -1;
    let next = at + 4;
    for (let i = 0; i < count; i++) {
      if (kind === MAPPING) {
        const name = nodes[next + 1]!;
        if (next + 2 > last || name < 0 || name >= names) return -1;
        next += 2;
      }
      if (next >= last) return -1;
      next = end(next);
      if (next === -1) return -1;
    }
    return next === last ? last : -1;
  };
  return nodes.length > 0 && end(0) === nodes.length;
}

/** A located node read from its stored form; a collection's children are built on first use. */
class StoredNode implements LocatedNode {
  readonly offset: number;
  private built: Map<string, { key: number; value: LocatedNode }> | LocatedNode[] | undefined;

  constructor(
    private readonly stored: StoredParse,
    private readonly at: number,
  ) {
    this.offset = stored.nodes[at + 1]!;
  }

  get entries(): Map<string, { key: number; value: LocatedNode }> | undefined {
    if (this.stored.nodes[this.at] !== MAPPING) return undefined;
    if (this.built) return this.built as Map<string, { key: number; value: LocatedNode }>;
    const { nodes, names } = this.stored;
    const entries = new Map<string, { key: number; value: LocatedNode }>();
    let next = this.at + 4;
    for (let i = nodes[this.at + 2]!; i > 0; i--) {
      const value = new StoredNode(this.stored, next + 2);
      entries.set(names[nodes[next + 1]!]!, { key: nodes[next]!, value });
      next = nodeEnd(nodes, next + 2);
    }
    this.built = entries;
    return entries;
  }

  get items(): LocatedNode[] | undefined {
    if (this.stored.nodes[this.at] !== SEQUENCE) return undefined;
    if (this.built) return this.built as LocatedNode[];
    const { nodes } = this.stored;
    const items: LocatedNode[] = [];
    let next = this.at + 4;
    for (let i = nodes[this.at + 2]!; i > 0; i--) {
      items.push(new StoredNode(this.stored, next));
      next = nodeEnd(nodes, next);
    }
    this.built = items;
    return items;
  }
}

/** The index after the node at `at`. */
function nodeEnd(nodes: Int32Array, at: number): number {
  return nodes[at] === SCALAR ? at + 2 : nodes[at + 3]!;
}
