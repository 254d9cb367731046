import { stringify } from 'yaml';
import { generatedNote } from '../../schema/generated-note.js';
import { writeYamlPair, YAML_OPTIONS, yamlKey } from '../../shared/yaml-writer.js';
import type { WriterFile } from '../commit-types.js';
import { Deferred, hasSharedObjects, isBlockMap, settle } from './deferred-entries.js';
import { Writer } from './document-writer.js';
import type { FastContext } from './emit-context.js';
import { digestHash0, digestHash1, keptIndexes, placeHash, readIndex } from './entry-index.js';

/**
 * The text of the catalogue documents (`catalogue/openapi.*`, `catalogue/asyncapi.*`), written one map
 * entry at a time down to `CHUNKED_DEPTH` levels, byte for byte what `JSON.stringify(document, null, 2)`
 * and yaml's `stringify(document, { lineWidth: 0 })` write whole:
 * - for memory: yaml builds a node for every value before writing any, and on a large catalogue the
 *   two documents' nodes were the build's peak memory (see docs/decisions/0006);
 * - for edits: an entry built by a `Deferred` (one per event) is identified by a digest of what it is
 *   built from; the emit cache keeps where each entry is in the file as written (byte offsets), and the
 *   next build copies the bytes of the entries whose digest is unchanged from the file in the output (if
 *   it is still the file written: by its stamp, else by its digest), a chunk at a time through one
 *   reused buffer, so an edit of one group builds that group's entries only and
 *   never holds the old file, and the file says whether the output holds it already (`inOutput`).
 * A file's bytes are made in pieces of about a megabyte, each appended to the build's staging folder as
 * it is made (`FastContext.openSink`; without one, the file returns them: `WriterFile.pieces`): the
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

/** A catalogue-wide document as `<path>.json` plus a `<path>.yaml` copy that carries the generated note. */
export function documentFiles(path: string, document: unknown, context?: FastContext): WriterFile[] {
  const unit = `document-${path.replace(/[^a-z0-9]+/gi, '-')}`;
  const kept = context?.cache?.recall?.(unit);
  const json = new Writer(`${path}.json`, context, readIndex(kept, 0));
  const yaml = new Writer(`${path}.yaml`, context, readIndex(kept, 1));
  let files: WriterFile[];
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
    // id covers the key, which passed when it was written), and an edit copies nearly all of them.
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
 * text once more (see docs/decisions/0006).
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
