import { createHash, type Hash } from 'node:crypto';
import { stringify } from 'yaml';
import type { OutputFile } from '../../emit/context.js';
import type { Catalogue } from '../../model.js';
import { entryDigest } from '../../model-digest.js';
import type { ComponentEntry } from '../../schema/components.js';
import { generatedNote } from '../../schema/generated-note.js';
import { writeYamlPair, YAML_OPTIONS, yamlKey } from '../../shared/yaml-writer.js';
import type { ExistingFile, FastContext, OutputSink } from './emit-context.js';

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
 * it is made (`FastContext.openSink`; without one, the file returns them: `OutputFile.pieces`): the
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
    private readonly id: string,
    private readonly make: () => unknown,
  ) {}
  get digest(): string {
    return this.id;
  }
  build(): unknown {
    return this.make();
  }
}

/**
 * Defers each event's and shape's entry in `section`, under the digest of its part of the model: its
 * first 132 bits (22 base64 characters), plenty to tell one entry's model from another's.
 */
export function modelEntries(model: Catalogue, section = 'components'): ComponentEntry {
  return (kind, name, build) => new ModelEntry(model, section, kind, name, build);
}

const NOTHING = () => undefined;

/**
 * An event's or shape's entry (`modelEntries`), which makes its digest when asked, and builds
 * from its name: at 10,000 events a document defers 40,000 entries, held while it is written, and
 * an id string and a closure apiece were a third of what an edit's documents allocated.
 */
class ModelEntry extends Deferred {
  constructor(
    private readonly model: Catalogue,
    private readonly section: string,
    private readonly kind: 'event' | 'shape',
    private readonly name: string,
    private readonly from: (name: string) => unknown,
  ) {
    super('', NOTHING);
  }
  override get digest(): string {
    const { model, kind, name } = this;
    return `${this.section}:${kind}:${entryDigest(kind === 'event' ? model.events : model.shapes, name).slice(0, 22)}`;
  }
  override build(): unknown {
    return this.from(this.name);
  }
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
export function documentFiles(path: string, document: unknown, context?: FastContext): OutputFile[] {
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

/**
 * The two files' indexes as the cache keeps them. The YAML file's entries are the JSON file's, in the
 * same order, under the same ids and never first (see `EntryIds`): its ids are kept once, and the
 * next build reads them from the JSON file's index (`readIndex`).
 */
function keptIndexes(json: FileIndex | undefined, yaml: FileIndex | undefined): unknown[] {
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
    // id covers the key, which passed when it was written): an edit of 10,000 events copies 80,000.
    const place = placeHash(indent.length, key);
    const digest = value.digest;
    const what0 = digestHash0(digest);
    const what1 = digestHash1(digest);
    const jsonCopied = json.copy(place, what0, what1, wasFirst);
    const yamlCopied = yaml.copy(place, what0, what1, false);
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
      json.entry(place, what0, what1, wasFirst, jsonHead(wasFirst, inner, key) + jsonValue(make(), inner));
    if (!yamlCopied) yaml.entry(place, what0, what1, false, yamlPair(key, make(), indent));
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
  return indentedJson(settle(value), indent);
}

/**
 * `JSON.stringify(value, null, 2)` with every line after the first led by `indent`. Where that is whole
 * levels of two spaces, the value is stringified as many objects deep, so that JSON.stringify indents it
 * where it goes, and its text is a slice of that: indenting each line afterwards copied every entry's
 * text once more (about 100 MB of short-lived strings for the AsyncAPI document at 10,000 events).
 */
export function indentedJson(value: unknown, indent: string): string {
  const levels = indent.length / 2;
  if (value === undefined || levels === 0 || !Number.isInteger(levels) || !/^ *$/.test(indent)) {
    const text = JSON.stringify(value, null, 2);
    return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
  }
  let wrapped: unknown = value;
  for (let level = 0; level < levels; level++) wrapped = { '': wrapped };
  const text = JSON.stringify(wrapped, null, 2);
  // Level i (from 1) opens with `{\n`, 2i spaces and `"": `, and closes with `\n`, 2(i - 1) spaces, `}`.
  const opening = 6 * levels + levels * (levels + 1);
  const closing = 2 * levels + levels * (levels - 1);
  return text.slice(opening, text.length - closing);
}

/** One entry's YAML, `key: value` at `indent`. */
function yamlPair(key: string, value: unknown, indent: string): string {
  const plain = settle(value);
  const direct = writeYamlPair(key, plain, indent);
  if (direct !== undefined) return direct;
  const text = stringify({ [key]: plain }, YAML_OPTIONS);
  return indent === '' ? text : indentLines(text, indent);
}

/**
 * Every non-empty line of yaml's text led by `indent`. Lines end at `\n` only: a multiline `^` also
 * matches after U+2028 and U+2029, which yaml leaves inside a scalar, and indented its text.
 */
function indentLines(text: string, indent: string): string {
  let out = '';
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end + 1;
    if (stop - start > 1 || end === -1) out += indent;
    out += text.slice(start, stop);
    start = stop;
  }
  return out;
}

/**
 * Where each deferred entry is in a document file, in the order written: entry `i` has the id
 * `ids[3i..3i + 2]` (see `EntryIds`) and spans the bytes from `spans[2i]` to `spans[2i + 1]`; and the
 * digest of the whole file. Typed arrays, not an id string per entry: at 10,000 events the AsyncAPI
 * file has 40,000 entries, whose ids as strings were 4 MB to read, deserialise, join and write again on
 * every edit (200 ms of it, much of that the fresh memory it took).
 */
interface FileIndex {
  digest: string;
  ids: Uint32Array;
  spans: Float64Array;
  /** The entries first in their JSON map (whose bytes start with `{`), ascending. */
  firsts: Uint32Array;
  /** The file's stamp (shared/fs.ts `fileStamp`) as the output holds it, when the sink could tell. */
  stamp?: string;
}

function readIndex(kept: unknown, n: number): FileIndex | undefined {
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
  /** Every entry's rank by id, made at the first entry not found at the cursor (see `rankOf`). */
  ranks?: Map<number, number>;
  /** `firsts` as a set of ranks. */
  firstRanks?: Set<number>;
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
  /** The index of what is written (see `FileIndex`), sized for the old file's entries. */
  private readonly entries: EntryIds;
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
    context?: FastContext,
    last?: FileIndex,
  ) {
    this.sink = context?.openSink?.(path);
    this.entries = new EntryIds(last ? last.spans.length / 2 : 0);
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
   * Writes the entry whose id is `place`, `what0`, `what1` (see `EntryIds`; the first of its map:
   * `first`) as the last build wrote it, if the old file has it.
   */
  copy(place: number, what0: number, what1: number, first: boolean): boolean {
    const old = this.old;
    if (!old) return false;
    const { ids, spans } = old.index;
    let rank: number | undefined = old.cursor;
    const count = spans.length / 2;
    if (rank >= count || !sameId(old, rank, place, what0, what1, first)) {
      // The same entry built from a changed part of the model (its id differs in the digest only)
      // stands where its old text was: no need to look further (an edit of one group of 10,000 events
      // would otherwise index every id of the file for its few changed entries).
      if (rank < count && ids[3 * rank] === place && isFirst(old, rank) === first) {
        old.cursor++;
        return false;
      }
      rank = rankOf(old, place, what0, what1, first);
      if (rank === undefined) {
        // An entry built anew most likely stands where its old text was.
        old.cursor++;
        return false;
      }
    }
    old.cursor = rank + 1;
    const start = spans[2 * rank]!;
    const end = spans[2 * rank + 1]!;
    // The old id, the same text.
    this.entries.add(place, what0, what1, first, this.length, this.length + end - start);
    this.length += end - start;
    if (this.run?.end === start) this.run.end = end;
    else {
      this.endRun();
      this.run = { start, end };
    }
    return true;
  }
  /** Writes the entry `place`, `what0`, `what1`, recording where it is for the next build. */
  entry(place: number, what0: number, what1: number, first: boolean, text: string): void {
    const start = this.length;
    this.push(text);
    this.entries.add(place, what0, what1, first, start, this.length);
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
    this.entries.clear();
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
      ...this.entries.index(),
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
    // Text is encoded straight into the reused buffer, part after part: joining a megabyte of parts
    // into one string first made it fresh memory each time (63 MB of it for a 10,000-event build's
    // documents, which on this host cost about 18 us a page).
    let encoded = 0;
    const writeText = () => {
      if (encoded === 0) return;
      this.out(ENCODED.subarray(0, encoded), true);
      encoded = 0;
    };
    for (const part of this.pending) {
      if (typeof part === 'string') {
        const bytes = Buffer.byteLength(part);
        if (encoded + bytes > ENCODED.length) writeText();
        // One huge entry is written on its own.
        if (bytes > ENCODED.length) this.out(Buffer.from(part), false);
        else encoded += ENCODED.write(part, encoded);
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
 * The ids and spans of a file's entries as they are written, in typed arrays that grow by doubling.
 * An entry's id is three 32-bit hashes: of its place (its YAML indent, which names the map it is in,
 * and its key) and, twice over, of its `Deferred`'s digest; with whether it is the first of its JSON
 * map (whose bytes start with `{` instead of `,`). An entry is copied only when all of them match: 96
 * bits, where one entry's changed digest has a 2^-64 chance of passing for its old one.
 */
class EntryIds {
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
function sameId(
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

function isFirst(old: OldFile, rank: number): boolean {
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
function rankOf(
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
function placeHash(indent: number, key: string): number {
  return fnv1a(key, Math.imul(0x811c9dc5 ^ indent, 0x01000193));
}

/** The first hash of a `Deferred`'s digest. */
function digestHash0(digest: string): number {
  return fnv1a(digest);
}

/** The second hash of a `Deferred`'s digest, of another construction than the first (murmur3's mix). */
function digestHash1(digest: string): number {
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
  const look = (child: unknown) => {
    if (child !== null && typeof child === 'object' && !(child instanceof Deferred)) stack.push(child);
  };
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (seen.has(value) || outside?.has(value)) return true;
    seen.add(value);
    // Not `Object.values`: a document's maps hold 10,000 entries, each map a new array of them.
    if (Array.isArray(value)) for (const child of value) look(child);
    else for (const key in value) look((value as Record<string, unknown>)[key]);
  }
  return false;
}
