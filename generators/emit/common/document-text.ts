import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { Catalogue } from '../../model.js';
import type { ComponentEntry } from '../../schema/components.js';
import { generatedNote } from '../../schema/generated-note.js';
import { writeYamlPair, YAML_OPTIONS, yamlKey } from '../../shared/yaml-writer.js';
import type { EmitContext, OutputFile } from '../context.js';
import { modelDigest } from './model-digest.js';

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
  const note = `# ${generatedNote('catalogue/')}\n`;
  const json = new Writer(`${path}.json`, '', context, readIndex(kept, 0));
  const yaml = new Writer(`${path}.yaml`, note, context, readIndex(kept, 1));
  const [jsonText, yamlText] = writeDocument(document, json, yaml);
  context?.cache?.keep?.(unit, [json.index('\n'), yaml.index('')]);
  return [
    { path: json.path, contents: `${jsonText}\n` },
    { path: yaml.path, contents: `${note}${yamlText}` },
  ];
}

/** `JSON.stringify(settle(document), null, 2)`, written entry by entry (see the top of this file). */
export function documentJson(document: unknown): string {
  return writeDocument(document, new Writer(), new Writer())[0];
}

/** `stringify(settle(document), { lineWidth: 0 })`, written entry by entry (see the top of this file). */
export function documentYaml(document: unknown): string {
  return writeDocument(document, new Writer(), new Writer())[1];
}

/** The JSON and YAML texts of `document`, entry by entry where it can (see the top of this file). */
function writeDocument(document: unknown, json: Writer, yaml: Writer): [string, string] {
  if (isBlockMap(document) && !hasSharedObjects(document)) {
    try {
      writeEntries(document, '', CHUNKED_DEPTH, json, yaml, new Set());
      return [json.text(), yaml.text()];
    } catch (error) {
      if (!(error instanceof Whole)) throw error;
      json.discard();
      yaml.discard();
    }
  }
  const plain = settle(document);
  return [JSON.stringify(plain, null, 2), stringify(plain, YAML_OPTIONS)];
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
  built: Set<object>,
): void {
  const inner = `${indent}  `;
  let first = true;
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') throw new Whole();
    const head = yamlKey(key);
    if (head === undefined) throw new Whole();
    json.push(`${first ? '{\n' : ',\n'}${inner}${JSON.stringify(key)}: `);
    first = false;
    if (depth > 1 && isBlockMap(value)) {
      yaml.push(`${indent}${head}\n`);
      writeEntries(value, inner, depth - 1, json, yaml, built);
      continue;
    }
    if (!(value instanceof Deferred)) {
      json.push(jsonValue(value, inner));
      yaml.push(yamlPair(key, value, indent));
      continue;
    }
    const id = `${indent.length}\0${key}\0${value.digest}`;
    const jsonText = json.copy(id);
    const yamlText = yaml.copy(id);
    let plain: unknown;
    let made = false;
    const make = () => {
      if (!made) {
        plain = settle(value);
        made = true;
        // Not in the whole-document check for objects in two places: checked as built, against the
        // other entries built. An entry copied from the last build was checked when it was built.
        if (hasSharedObjects(plain, built)) throw new Whole();
      }
      return plain;
    };
    json.entry(id, jsonText ?? jsonValue(make(), inner));
    yaml.entry(id, yamlText ?? yamlPair(key, make(), indent));
  }
  json.push(first ? '{}' : `\n${indent}}`);
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
 * One document file's text as it is written, after `prefix` (offsets count from its end), and the
 * entries it can copy from the same file as the last build wrote it, when the output still holds that
 * text (by its digest).
 */
class Writer {
  private readonly parts: string[] = [];
  private length = 0;
  /** The digest of the file's text so far, fed part by part (the whole text is never flattened for it). */
  private readonly hash = createHash('sha256');
  private readonly entries = new Map<string, [number, number]>();
  private readonly old: string | undefined;
  private readonly oldEntries: FileIndex['entries'] | undefined;
  private discarded = false;
  constructor(
    readonly path = '',
    private readonly prefix = '',
    context?: EmitContext,
    last?: FileIndex,
  ) {
    const old = last ? context?.readExisting(path) : undefined;
    if (last && old?.startsWith(prefix) && textDigest(old) === last.digest) {
      this.old = old;
      this.oldEntries = last.entries;
    }
    this.hash.update(prefix);
  }
  push(text: string): void {
    this.parts.push(text);
    this.length += text.length;
    this.hash.update(text);
  }
  /** The text of entry `id` as the last build wrote it, if the old file has it. */
  copy(id: string): string | undefined {
    const at = this.oldEntries?.get(id);
    const start = this.prefix.length;
    return at ? this.old!.slice(start + at[0], start + at[1]) : undefined;
  }
  /** Writes entry `id`, recording where it is for the next build. */
  entry(id: string, text: string): void {
    const start = this.length;
    this.push(text);
    this.entries.set(id, [start, this.length]);
  }
  text(): string {
    return this.parts.join('');
  }
  /** Forgets what was written (the document is then written whole, and nothing can be copied from it). */
  discard(): void {
    this.parts.length = 0;
    this.length = 0;
    this.entries.clear();
    this.discarded = true;
  }
  /**
   * What the next build needs to copy entries from this file, whose whole text is the prefix, what was
   * written and `suffix`; nothing when the document was written whole.
   */
  index(suffix: string): FileIndex | undefined {
    if (this.discarded) return undefined;
    return { digest: this.hash.update(suffix).digest('base64'), entries: this.entries };
  }
}

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
