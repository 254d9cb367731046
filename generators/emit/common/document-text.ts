import { createHash, type Hash } from 'node:crypto';
import { stringify } from 'yaml';
import type { Catalogue } from '../../model.js';
import { entryDigest } from '../../model-digest.js';
import type { ComponentEntry } from '../../schema/components.js';
import { generatedNote } from '../../schema/generated-note.js';
import { writeYamlPair, YAML_OPTIONS, yamlKey } from '../../shared/yaml-writer.js';
import type { EmitContext, ExistingFile, OutputFile, OutputSink } from '../context.js';

/**
 * The text of the catalogue documents (`catalogue/openapi.*`, `catalogue/asyncapi.*`), written one map
 * entry at a time down to `CHUNKED_DEPTH` levels, byte for byte what `JSON.stringify(document, null, 2)`
 * and yaml's `stringify(document, { lineWidth: 0 })` write whole:
 * - for memory: yaml builds a node for every value before writing any, and at 10,000 events the two
 *   documents' nodes were the build's peak memory;
 * - for edits: an entry built by a `Deferred` (one per event) is identified by a digest of what it is
 *   built from; the emit cache keeps where each entry is in the file as written (byte offsets), and the
 *   next build copies the bytes of the entries whose digest is unchanged from the file in the output (if
 *   it is still the file written: by its stamp, else by its digest), a chunk at a time through one
 *   reused buffer, so an edit of one group of 10,000 events builds that group's entries only and
 *   never holds the old file, and the file says whether the output holds it already (`inOutput`).
 * A file's bytes are made in pieces of about a megabyte, each appended to the build's staging folder as
 * it is made (`EmitContext.openSink`; without one, the file returns them: `OutputFile.pieces`): the
 * text of a whole document is never one string, nor held.
 * A block map's entries are written independently of one another (each on its own lines, indented by
 * its depth; no line folding), so an entry written alone and indented is the same text; JSON likewise.
 * Both files are written in one walk, so each entry is built once and dropped once written. A document
 * this cannot write entry by entry (an object in two places, which yaml writes as an alias; a key yaml
 * would quote at a chunked level; a value JSON leaves out) is written whole by the whole writers.
 * `yaml-chunks.test.ts` and `document-memo.test.ts` compare with the whole writers.
 */

/** Map levels written entry by entry: the document, its sections (`components`), their maps (`schemas`). */
const CHUNKED_DEPTH = 3;

/**
 * A document value built on demand, identified by `digest` (which must cover everything `build`
 * reads): when the last build's text of the entry can be copied, it is never built. `build` returns
 * objects of its own, shared with nothing else in the document (yaml would write a shared one as an
 * alias); it is called again whenever the value is needed again (nothing is held once written).
 */
export class Deferred {
  constructor(
    readonly digest: string,
    readonly build: () => unknown,
  ) {}
}

/**
 * Defers each event's and shape's entry in `section`, under the digest of its part of the model: its
 * first 132 bits (22 base64 characters), plenty to tell one entry's model from another's, and half the
 * size of the entry ids the next build reads back (see `keptIndexes`).
 */
export function modelEntries(model: Catalogue, section = 'components'): ComponentEntry {
  return (kind, name, build) =>
    new Deferred(
      `${section}:${kind}:${entryDigest(kind === 'event' ? model.events : model.shapes, name).slice(0, 22)}`,
      build,
    );
}

/** Every `Deferred` in `value` built: the plain value the whole writers take (copied only where one was). */
export function settle(value: unknown): unknown {
  if (value instanceof Deferred) return settle(value.build());
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map(settle);
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    const settled = settle(child);
    if (settled !== child) copy ??= { ...(value as Record<string, unknown>) };
    if (copy) copy[key] = settled;
  }
  return copy ?? value;
}

/** A catalogue-wide document as `<path>.json` plus a `<path>.yaml` copy that carries the generated note. */
export function documentFiles(path: string, document: unknown, context?: EmitContext): OutputFile[] {
  const unit = `document-${path.replace(/[^a-z0-9]+/gi, '-')}`;
  const kept = context?.cache?.recall?.(unit);
  const json = new Writer(`${path}.json`, context, readIndex(kept, 0));
  const yaml = new Writer(`${path}.yaml`, context, readIndex(kept, 1));
  let files: OutputFile[];
  try {
    yaml.push(`# ${generatedNote('catalogue/')}\n`);
    writeDocument(document, json, yaml);
    json.push('\n');
    files = [json.file(), yaml.file()];
  } catch (error) {
    json.discard();
    yaml.discard();
    throw error;
  }
  context?.cache?.keep?.(unit, keptIndexes(json.index(), yaml.index()));
  return files;
}

/** Marks the first entry of each JSON map, whose bytes start with `{` instead of `,` (see `writeEntries`). */
const FIRST = '\0first';

/**
 * The two files' indexes as the cache keeps them. The YAML file's entries are the JSON file's, in the
 * same order, under the same ids less the JSON first-entry mark: its ids are kept once (at 10,000
 * events they are 4 MB a file, which the next build reads and deserialises), and made again from the
 * JSON ones when read (`readIndex`).
 */
function keptIndexes(json: FileIndex | undefined, yaml: FileIndex | undefined): unknown[] {
  if (json === undefined || yaml === undefined || !idsInStep(json.ids, yaml.ids)) return [json, yaml];
  const { ids: _ids, ...rest } = yaml;
  return [json, { ...rest, idsOfJson: true }];
}

/** Whether `yaml` is `json` with the first-entry marks taken off. */
function idsInStep(json: readonly string[], yaml: readonly string[]): boolean {
  if (json.length !== yaml.length) return false;
  for (let i = 0; i < json.length; i++) {
    const id = json[i]!;
    if (id === yaml[i]) continue;
    if (!id.endsWith(FIRST) || id.length !== yaml[i]!.length + FIRST.length || !id.startsWith(yaml[i]!)) {
      return false;
    }
  }
  return true;
}

/** `JSON.stringify(settle(document), null, 2)`, written entry by entry (see the top of this file). */
export function documentJson(document: unknown): string {
  const json = new Writer();
  writeDocument(document, json, new Writer());
  return json.text();
}

/** `stringify(settle(document), { lineWidth: 0 })`, written entry by entry (see the top of this file). */
export function documentYaml(document: unknown): string {
  const yaml = new Writer();
  writeDocument(document, new Writer(), yaml);
  return yaml.text();
}

/** Writes `document` to both writers, entry by entry where it can (see the top of this file). */
function writeDocument(document: unknown, json: Writer, yaml: Writer): void {
  if (isBlockMap(document)) {
    // The objects outside the deferred entries: an entry built must share none with them, nor with itself.
    const outside = new Set<object>();
    if (!hasSharedObjects(document, outside)) {
      json.mark();
      yaml.mark();
      try {
        writeEntries(document, '', CHUNKED_DEPTH, json, yaml, outside);
        return;
      } catch (error) {
        if (!(error instanceof Whole)) throw error;
        json.rewind();
        yaml.rewind();
      }
    }
  }
  const plain = settle(document);
  json.push(JSON.stringify(plain, null, 2));
  yaml.push(stringify(plain, YAML_OPTIONS));
}

/** Thrown where the document must be written whole (see the top of this file). */
class Whole extends Error {}

/**
 * The entries of one map, at `indent` in YAML (its JSON indent is one level deeper): a block map above
 * the chunked depth is walked into, anything else is one entry.
 */
function writeEntries(
  map: Record<string, unknown>,
  indent: string,
  depth: number,
  json: Writer,
  yaml: Writer,
  outside: ReadonlySet<object>,
): void {
  const inner = `${indent}  `;
  // The first part of the id of each entry at this level (see `entryId`).
  const level = String(indent.length);
  let first = true;
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') throw new Whole();
    const wasFirst = first;
    first = false;
    if (!(value instanceof Deferred)) {
      const head = yamlKey(key);
      if (head === undefined) throw new Whole();
      if (depth > 1 && isBlockMap(value)) {
        json.push(jsonHead(wasFirst, inner, key));
        yaml.push(`${indent}${head}\n`);
        writeEntries(value, inner, depth - 1, json, yaml, outside);
        continue;
      }
      json.push(jsonHead(wasFirst, inner, key) + jsonValue(value, inner));
      yaml.push(yamlPair(key, value, indent));
      continue;
    }
    // A deferred entry copied from the last build needs neither its key written nor checked again (its
    // id holds the key, which passed when it was written), nor its id made (an edit of 10,000 events
    // copies 80,000 entries).
    const digest = value.digest;
    const jsonCopied = json.copy(level, key, digest, wasFirst);
    const yamlCopied = yaml.copy(level, key, digest, false);
    if (jsonCopied && yamlCopied) continue;
    if (yamlKey(key) === undefined) throw new Whole();
    let plain: unknown;
    let made = false;
    const make = () => {
      if (!made) {
        plain = settle(value);
        made = true;
        // `Deferred.build` returns objects of its own: checked as built, within the entry and against the
        // objects outside every entry (holding no entry's objects once it is written). An entry copied
        // from the last build was checked when it was built.
        if (hasSharedObjects(plain, new Set(), outside)) throw new Whole();
      }
      return plain;
    };
    if (!jsonCopied)
      json.entry(
        entryId(level, key, digest, wasFirst),
        jsonHead(wasFirst, inner, key) + jsonValue(make(), inner),
      );
    if (!yamlCopied) yaml.entry(entryId(level, key, digest, false), yamlPair(key, make(), indent));
  }
  json.push(first ? '{}' : `\n${indent}}`);
}

/**
 * What comes before an entry's value in JSON (the separator and the key), so that entries copied one
 * after another are one run of the old file.
 */
function jsonHead(first: boolean, indent: string, key: string): string {
  return `${first ? '{\n' : ',\n'}${indent}${JSON.stringify(key)}: `;
}

/** A value's pretty JSON as written at `indent` (its first line follows `"key": `). */
function jsonValue(value: unknown, indent: string): string {
  const text = JSON.stringify(settle(value), null, 2);
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

/** One entry's YAML, `key: value` at `indent`. */
function yamlPair(key: string, value: unknown, indent: string): string {
  const plain = settle(value);
  const direct = writeYamlPair(key, plain, indent);
  if (direct !== undefined) return direct;
  const text = stringify({ [key]: plain }, YAML_OPTIONS);
  return indent === '' ? text : text.replace(/^(?=.)/gm, indent);
}

/**
 * Where each deferred entry is in a document file, in the order written: `ids[i]` spans the bytes from
 * `spans[2i]` to `spans[2i + 1]`; and the digest of the whole file.
 */
interface FileIndex {
  digest: string;
  ids: string[];
  spans: number[];
  /** The file's stamp (shared/fs.ts `fileStamp`) as the output holds it, when the sink could tell. */
  stamp?: string;
}

function readIndex(kept: unknown, n: number): FileIndex | undefined {
  let index = Array.isArray(kept)
    ? (kept[n] as (Partial<FileIndex> & { idsOfJson?: boolean }) | undefined)
    : undefined;
  if (index?.idsOfJson === true) {
    const json = readIndex(kept, 0);
    if (json === undefined) return undefined;
    const ids = json.ids.map((id) => (id.endsWith(FIRST) ? id.slice(0, -FIRST.length) : id));
    index = { ...index, ids };
  }
  return typeof index?.digest === 'string' &&
    (index.stamp === undefined || typeof index.stamp === 'string') &&
    Array.isArray(index.ids) &&
    Array.isArray(index.spans) &&
    index.spans.length === 2 * index.ids.length
    ? (index as FileIndex)
    : undefined;
}

/** How much text a writer gathers before turning it into bytes: pieces of about this size are written. */
const PIECE_BYTES = 1 << 20;

/**
 * The buffers bytes pass through on their way to a sink, reused by every writer (each piece is written
 * before the next is made): a fresh buffer per megabyte costs its page faults, more than the copy.
 */
const CHUNK = Buffer.allocUnsafeSlow(PIECE_BYTES);
const ENCODED = Buffer.allocUnsafeSlow(2 * PIECE_BYTES);

/** The file the last build wrote, as the output still holds it, and where its entries are. */
interface OldFile {
  file: ExistingFile;
  index: FileIndex;
  /** Where the next entry is looked for first: entries come in the order they were written. */
  cursor: number;
  /** Every entry's rank by id, made at the first entry not found at the cursor. */
  ranks?: Map<string, number>;
}

/**
 * One document file's bytes as they are written, in pieces of about a megabyte (no string of the whole
 * file is ever made), with the digest of what was written; into the build's staging folder as they
 * come when the context has a sink for it, else kept. It copies the entries it can from the same file
 * as the last build wrote it, when the output still holds those bytes (by their digest): entries
 * copied one after another are one run of the old file, written as it is.
 */
class Writer {
  private readonly pieces: Uint8Array[] = [];
  /** Text, and runs of the old file, not yet written. */
  private pending: (string | Run)[] = [];
  private pendingBytes = 0;
  /** Bytes written so far (flushed, pending and in the run). */
  private length = 0;
  private hash = createHash('sha256');
  private digest: string | undefined;
  private readonly ids: string[] = [];
  private readonly spans: number[] = [];
  private readonly sink: OutputSink | undefined;
  private readonly old: OldFile | undefined;
  /** The old file's bytes from `start` to `end` are next, not yet pending. */
  private run: Run | undefined;
  private whole = false;
  private marked: { length: number; pieces: number; hash: Hash } | undefined;
  /** The written file's stamp once closed, when known (see `FileIndex.stamp`). */
  private stamp: string | undefined;
  constructor(
    readonly path = '',
    context?: EmitContext,
    last?: FileIndex,
  ) {
    this.sink = context?.openSink?.(path);
    if (!last || !context) return;
    const existing = context.openExisting
      ? context.openExisting(path)
      : inMemory(Buffer.from(context.readExisting(path) ?? ''));
    if (existing === undefined) return;
    try {
      // The file the index describes: by its stamp, which a rename into the output keeps, else by
      // its bytes (a file left as it was because the build found it the same, or written by a sink
      // that cannot tell its stamp).
      if (
        existing.size > 0 &&
        ((last.stamp !== undefined && last.stamp === existing.stamp) ||
          digestOfFile(existing) === last.digest)
      ) {
        this.old = { file: existing, index: last, cursor: 0 };
      }
    } finally {
      if (this.old === undefined) existing.close();
    }
  }
  push(text: string): void {
    this.endRun();
    this.add(text, Buffer.byteLength(text));
  }
  /**
   * Writes the entry `key` at `level` built from `digest` (the first of its map: `first`) as the last
   * build wrote it, if the old file has it. Its id is compared in parts (`isEntryId`), not made.
   */
  copy(level: string, key: string, digest: string, first: boolean): boolean {
    const old = this.old;
    if (!old) return false;
    const { ids, spans } = old.index;
    let rank: number | undefined = old.cursor;
    const atCursor = ids[rank];
    if (atCursor === undefined || !isEntryId(atCursor, level, key, digest, first)) {
      // The same entry built from a changed part of the model (its id differs in the digest only)
      // stands where its old text was: no need to look further (an edit of one group of 10,000 events
      // would otherwise index every id of the file for its few changed entries).
      if (atCursor !== undefined && isEntryId(atCursor, level, key, undefined, first)) {
        old.cursor++;
        return false;
      }
      old.ranks ??= new Map(ids.map((entry, i) => [entry, i]));
      rank = old.ranks.get(entryId(level, key, digest, first));
      if (rank === undefined) {
        // An entry built anew most likely stands where its old text was.
        old.cursor++;
        return false;
      }
    }
    old.cursor = rank + 1;
    const start = spans[2 * rank]!;
    const end = spans[2 * rank + 1]!;
    // The old id, the same text: none is made for an entry copied.
    this.ids.push(ids[rank]!);
    this.spans.push(this.length, this.length + end - start);
    this.length += end - start;
    if (this.run?.end === start) this.run.end = end;
    else {
      this.endRun();
      this.run = { start, end };
    }
    return true;
  }
  /** Writes entry `id`, recording where it is for the next build. */
  entry(id: string, text: string): void {
    const start = this.length;
    this.push(text);
    this.ids.push(id);
    this.spans.push(start, this.length);
  }
  /** Remembers how much is written, for `rewind`. */
  mark(): void {
    this.flush();
    this.marked = { length: this.length, pieces: this.pieces.length, hash: this.hash.copy() };
  }
  /**
   * Forgets what was written since `mark` (the document is then written whole, and nothing of this
   * file can be copied by the next build).
   */
  rewind(): void {
    const { length, pieces, hash } = this.marked!;
    this.pending = [];
    this.pendingBytes = 0;
    this.run = undefined;
    this.pieces.length = pieces;
    this.length = length;
    this.hash = hash;
    this.sink?.truncate(length);
    this.ids.length = 0;
    this.spans.length = 0;
    this.whole = true;
  }
  /** The file: in the staging folder already, or its bytes in pieces; whether the output holds it, when known. */
  file(): OutputFile {
    const digest = this.finish();
    const { pieces, sink } = this;
    const same = this.old !== undefined && digest === this.old.index.digest;
    // Where the file will be: the output keeps the old one when the two are the same, else the
    // staged one is moved there.
    const written = sink?.close?.();
    this.stamp = same ? this.old!.file.stamp : written;
    this.old?.file.close();
    let contents: string | undefined;
    // The text only for a reader that asks for it (the build writes the pieces, or has the file).
    const file: OutputFile = {
      path: this.path,
      ...(sink ? { sunk: true as const } : { pieces }),
      get contents() {
        contents ??= (sink ? sink.read() : Buffer.concat(pieces)).toString('utf8');
        return contents;
      },
    };
    if (this.old) file.inOutput = same ? 'same' : 'different';
    return file;
  }
  /** Lets go of the files after a failure (the build discards what was staged). */
  discard(): void {
    try {
      this.sink?.close?.();
    } catch {
      // The failure being reported matters, not this one.
    }
    try {
      this.old?.file.close();
    } catch {
      // As above.
    }
  }
  text(): string {
    this.flush();
    return Buffer.concat(this.pieces).toString('utf8');
  }
  /** What the next build needs to copy entries from this file; nothing when the document was written whole. */
  index(): FileIndex | undefined {
    if (this.whole) return undefined;
    return {
      digest: this.finish(),
      ids: this.ids,
      spans: this.spans,
      ...(this.stamp === undefined ? {} : { stamp: this.stamp }),
    };
  }
  private finish(): string {
    this.flush();
    this.digest ??= this.hash.digest('base64');
    return this.digest;
  }
  private add(part: string | Run, bytes: number): void {
    this.pending.push(part);
    this.pendingBytes += bytes;
    this.length += typeof part === 'string' ? bytes : 0;
    if (this.pendingBytes >= PIECE_BYTES) this.flush();
  }
  private endRun(): void {
    const run = this.run;
    if (!run) return;
    this.run = undefined;
    // Its length is counted already (`copy`).
    this.add(run, run.end - run.start);
  }
  /**
   * Writes what is pending: the text between two runs of the old file as one piece, each run read
   * from the old file a chunk at a time.
   */
  private flush(): void {
    this.endRun();
    let text: string[] = [];
    let textBytes = 0;
    const writeText = () => {
      if (text.length === 0) return;
      const joined = text.join('');
      // Encoded into the reused buffer when it fits (a piece is about a megabyte; one huge entry is not).
      if (textBytes <= ENCODED.length) this.out(ENCODED.subarray(0, ENCODED.write(joined)), true);
      else this.out(Buffer.from(joined), false);
      text = [];
      textBytes = 0;
    };
    for (const part of this.pending) {
      if (typeof part === 'string') {
        text.push(part);
        textBytes += Buffer.byteLength(part);
        continue;
      }
      writeText();
      const old = this.old!.file;
      for (let at = part.start; at < part.end; ) {
        const read = old.read(CHUNK.subarray(0, Math.min(CHUNK.length, part.end - at)), at);
        if (read === 0) throw new Error(`eventry: ${this.path} in the output changed while it was read`);
        this.out(CHUNK.subarray(0, read), true);
        at += read;
      }
    }
    writeText();
    this.pending = [];
    this.pendingBytes = 0;
  }
  /** One piece of the file, in order; `reused`: its buffer is written over next, so it is copied when kept. */
  private out(piece: Uint8Array, reused: boolean): void {
    this.hash.update(piece);
    if (this.sink) this.sink.write(piece);
    else this.pieces.push(reused ? Buffer.from(piece) : piece);
  }
}

/**
 * The id an entry has in a file's index: `<level>\0<key>\0<digest>`, the level being its YAML indent
 * (the map it is in) and the digest its `Deferred`'s; in JSON the first entry of a map, whose bytes
 * start with `{` instead of `,`, is marked (`FIRST`).
 */
function entryId(level: string, key: string, digest: string, first: boolean): string {
  const id = `${level}\0${key}\0${digest}`;
  return first ? `${id}${FIRST}` : id;
}

/** Whether `id` is `entryId(level, key, digest, first)` (with any digest when none is given), made or not. */
function isEntryId(
  id: string,
  level: string,
  key: string,
  digest: string | undefined,
  first: boolean,
): boolean {
  let at = level.length;
  if (!id.startsWith(level) || id.charCodeAt(at) !== 0 || !id.startsWith(key, at + 1)) return false;
  at += 1 + key.length;
  if (id.charCodeAt(at) !== 0 || id.endsWith(FIRST) !== first) return false;
  if (digest === undefined) return true;
  const end = first ? id.length - FIRST.length : id.length;
  return end - at - 1 === digest.length && id.startsWith(digest, at + 1);
}

/** A span of the old file's bytes, to be copied as it is. */
interface Run {
  start: number;
  end: number;
}

/** Bytes in memory as an `ExistingFile` (a context that can only read whole texts). */
function inMemory(bytes: Buffer): ExistingFile {
  return {
    size: bytes.length,
    stamp: undefined,
    read: (into, position) => bytes.copy(into, 0, position, Math.min(bytes.length, position + into.length)),
    close: () => {},
  };
}

/** The digest of a file's bytes, read a chunk at a time. */
function digestOfFile(file: ExistingFile): string {
  const hash = createHash('sha256');
  for (let at = 0; at < file.size; ) {
    const read = file.read(CHUNK, at);
    if (read === 0) break;
    hash.update(CHUNK.subarray(0, read));
    at += read;
  }
  return hash.digest('base64');
}

/** A non-empty plain object: written as a block map (an empty one is `{}`). */
function isBlockMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.keys(value).length > 0;
}

/**
 * Whether an object is reached twice, or is in `seen` or `outside` (`seen` gathers what was reached; a
 * `Deferred` is looked into when built).
 */
function hasSharedObjects(root: unknown, seen = new Set<object>(), outside?: ReadonlySet<object>): boolean {
  if (root === null || typeof root !== 'object' || root instanceof Deferred) return false;
  // Only objects to look into are stacked: a document's maps of 10,000 deferred entries each are
  // passed over, not pushed and popped.
  const stack: object[] = [root];
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (seen.has(value) || outside?.has(value)) return true;
    seen.add(value);
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (child !== null && typeof child === 'object' && !(child instanceof Deferred)) stack.push(child);
    }
  }
  return false;
}
