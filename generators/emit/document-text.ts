import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { Catalogue } from '../model.js';
import type { ComponentEntry } from '../schema/components.js';
import { generatedNote } from '../schema/generated-note.js';
import { writeYamlPair, YAML_OPTIONS, yamlKey } from '../shared/yaml-writer.js';
import type { EmitContext, OutputFile } from './context.js';

/**
 * The text of the catalogue documents (`catalogue/openapi.*`, `catalogue/asyncapi.*`), written one map
 * entry at a time down to `CHUNKED_DEPTH` levels, byte for byte what `JSON.stringify(document, null, 2)`
 * and yaml's `stringify(document, { lineWidth: 0 })` write whole:
 * - for memory: yaml builds a node for every value before writing any, and at 10,000 events the two
 *   documents' nodes were the build's peak memory;
 * - for edits: an entry built by a `Deferred` (one per event) is identified by a digest of what it is
 *   built from; the emit cache keeps where each entry is in the file as written, and the next build
 *   copies the entries whose digest is unchanged from the file in the output (if it is still the text
 *   written, by its digest), so an edit of one group of 10,000 events builds and writes that group's
 *   entries only.
 * A block map's entries are written independently of one another (each on its own lines, indented by
 * its depth; no line folding), so an entry written alone and indented is the same text; JSON likewise.
 * A document with an object in two places is written whole: yaml writes the second as an alias of the
 * first. `yaml-chunks.test.ts` and `document-text.test.ts` compare with the whole writers.
 */

/** Map levels written entry by entry: the document, its sections (`components`), their maps (`schemas`). */
const CHUNKED_DEPTH = 3;

/**
 * A document value built on demand, identified by `digest` (which must cover everything `build`
 * reads): when the last build's text of the entry can be copied, it is never built. `build` returns objects of its own,
 * shared with nothing else in the document (yaml would write a shared one as an alias).
 */
export class Deferred {
  private value: unknown;
  private built = false;
  constructor(
    readonly digest: string,
    private readonly build: () => unknown,
  ) {}
  get(): unknown {
    if (!this.built) {
      this.value = this.build();
      this.built = true;
    }
    return this.value;
  }
}

/** Digests of model objects (an event, a shape), computed once per object. */
const digests = new WeakMap<object, string>();

/**
 * A digest of a part of the model: an event's or a shape's entries in the documents are built from it
 * alone (and from the toolkit, which the emit cache's own identity covers).
 */
export function modelDigest(part: object): string {
  let digest = digests.get(part);
  if (digest === undefined) {
    digest = createHash('sha256').update(JSON.stringify(part)).digest('base64');
    digests.set(part, digest);
  }
  return digest;
}

/** Defers each event's and shape's entry in `section`, under the digest of its part of the model. */
export function modelEntries(model: Catalogue, section = 'components'): ComponentEntry {
  return (kind, name, build) =>
    new Deferred(
      `${section}:${kind}:${modelDigest(kind === 'event' ? model.events[name]! : model.shapes[name]!)}`,
      build,
    );
}

/** Every `Deferred` in `value` built: the plain value the whole writers take (copied only where one was). */
export function settle(value: unknown): unknown {
  if (value instanceof Deferred) return settle(value.get());
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
  const files = [
    { path: json.path, contents: `${documentJson(document, json)}\n` },
    {
      path: yaml.path,
      contents: yaml.prefix(`# ${generatedNote('catalogue/')}\n`, () => documentYaml(document, yaml)),
    },
  ];
  context?.cache?.keep?.(unit, [json.index(files[0]!.contents), yaml.index(files[1]!.contents)]);
  return files;
}

/** `JSON.stringify(settle(document), null, 2)`, written entry by entry (see the top of this file). */
export function documentJson(document: unknown, writer = new Writer()): string {
  if (!isBlockMap(document)) return JSON.stringify(settle(document), null, 2);
  writeJsonMap(document, '', CHUNKED_DEPTH, writer);
  return writer.text();
}

/** `stringify(settle(document), { lineWidth: 0 })`, written entry by entry (see the top of this file). */
export function documentYaml(document: unknown, writer = new Writer()): string {
  if (isBlockMap(document) && !hasSharedObjects(document)) {
    try {
      writeYamlEntries(document, '', CHUNKED_DEPTH, writer, new Set());
      return writer.text();
    } catch (error) {
      if (!(error instanceof SharedObjects)) throw error;
      writer.discard();
    }
  }
  return stringify(settle(document), YAML_OPTIONS);
}

/** Where each deferred entry is in a document file: offsets into its text, and that text's digest. */
interface FileIndex {
  digest: string;
  entries: Map<string, [start: number, end: number]>;
}

function readIndex(kept: unknown, n: number): FileIndex | undefined {
  const index = Array.isArray(kept) ? (kept[n] as Partial<FileIndex> | undefined) : undefined;
  return typeof index?.digest === 'string' && index.entries instanceof Map ? (index as FileIndex) : undefined;
}

function textDigest(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/**
 * One document file's text as it is written, and the entries it can copy from the same file as the last
 * build wrote it (when the output still holds that text).
 */
export class Writer {
  private readonly parts: string[] = [];
  private length = 0;
  private offset = 0;
  private readonly entries = new Map<string, [number, number]>();
  private readonly old: string | undefined;
  private readonly oldEntries: FileIndex['entries'] | undefined;
  constructor(
    readonly path = '',
    context?: EmitContext,
    last?: FileIndex,
  ) {
    const old = last && context?.readExisting(path);
    if (old !== undefined && textDigest(old) === last!.digest) {
      this.old = old;
      this.oldEntries = last!.entries;
    }
  }
  /** The file is `prefix` then `write()`'s text: offsets count from the end of the prefix. */
  prefix(prefix: string, write: () => string): string {
    this.offset = prefix.length;
    return prefix + write();
  }
  push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
  }
  /** Writes the entry `id`: as last written if the old text has it, else `write()`'s text. */
  entry(id: string, write: () => string): void {
    const start = this.length;
    const at = this.oldEntries?.get(id);
    this.push(at ? this.old!.slice(this.offset + at[0], this.offset + at[1]) : write());
    this.entries.set(id, [start, this.length]);
  }
  text(): string {
    return this.parts.join('');
  }
  /** Forgets what was written (the document is then written whole, by yaml). */
  discard(): void {
    this.parts.length = 0;
    this.length = 0;
    this.entries.clear();
  }
  /** What the next build needs to copy entries from `contents`, this file's whole text. */
  index(contents: string): FileIndex {
    return { digest: textDigest(contents), entries: this.entries };
  }
}

function writeJsonMap(map: Record<string, unknown>, indent: string, depth: number, out: Writer): void {
  const inner = `${indent}  `;
  let first = true;
  for (const key of Object.keys(map)) {
    const value = map[key];
    // JSON.stringify leaves out what JSON cannot hold; a Deferred is never one of those.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    out.push(`${first ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `);
    first = false;
    if (depth > 1 && isBlockMap(value)) writeJsonMap(value, inner, depth - 1, out);
    else if (value instanceof Deferred)
      out.entry(`${inner.length}\0${key}\0${value.digest}`, () => jsonValue(value, inner));
    else out.push(jsonValue(value, inner));
  }
  out.push(first ? '{}' : `\n${indent}}`);
}

/** A value's pretty JSON as written at `indent` (its first line follows `"key": `). */
function jsonValue(value: unknown, indent: string): string {
  const text = JSON.stringify(settle(value), null, 2);
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

function writeYamlEntries(
  map: Record<string, unknown>,
  indent: string,
  depth: number,
  out: Writer,
  built: Set<object>,
): void {
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (depth > 1 && isBlockMap(value)) {
      // The key alone (a key yaml would not write plain keeps the whole pair, written by yaml).
      const head = yamlKey(key);
      if (head !== undefined) {
        out.push(`${indent}${head}\n`);
        writeYamlEntries(value, `${indent}  `, depth - 1, out, built);
        continue;
      }
    }
    if (value instanceof Deferred)
      out.entry(`${indent.length}\0${key}\0${value.digest}`, () => yamlPair(key, value, indent, built));
    else out.push(yamlPair(key, value, indent, built));
  }
}

/**
 * One entry's YAML. A deferred value was not in the whole-document check for objects in two places:
 * it is checked as it is built, against the other entries built (`built`). An entry copied from the
 * last build was checked when it was built; a `Deferred` builds fresh objects (see there), so none is
 * shared with it.
 */
function yamlPair(key: string, deferred: unknown, indent: string, built: Set<object>): string {
  const value = settle(deferred);
  if (deferred instanceof Deferred && hasSharedObjects(deferred.get(), built)) throw new SharedObjects();
  const direct = writeYamlPair(key, value, indent);
  if (direct !== undefined) return direct;
  const text = stringify({ [key]: value }, YAML_OPTIONS);
  return indent === '' ? text : text.replace(/^(?=.)/gm, indent);
}

/** Thrown when a deferred entry holds an object twice: the document is then written whole by yaml. */
class SharedObjects extends Error {}

/** A non-empty plain object: written as a block map (an empty one is `{}`). */
function isBlockMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.keys(value).length > 0;
}

/** Whether an object is reached twice, or is in `seen` (a `Deferred` is looked into when built). */
function hasSharedObjects(root: unknown, seen = new Set<object>()): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object' || value instanceof Deferred) continue;
    if (seen.has(value)) return true;
    seen.add(value);
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child);
  }
  return false;
}
