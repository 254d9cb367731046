import { stringify } from 'yaml';
import type { Catalogue } from '../model.js';
import { generatedNote } from '../schema/generated-note.js';
import { writeYamlPair, YAML_OPTIONS, yamlKey } from '../shared/yaml-writer.js';

/** The note every generated file carries; the schema layer owns it, as standalone schemas carry it too. */
export { generatedNote };

/** A file an emitter wants written, path relative to the output root (`packages/`), `/`-separated. */
export interface OutputFile {
  path: string;
  contents: string;
}

/**
 * Memoises an emitter's expensive units (one group package) across builds. The key must cover every
 * input of the unit; the cache itself adds the toolkit's own fingerprint, so new generator code never
 * reuses old output.
 */
export interface EmitCache {
  get(unit: string, key: string): OutputFile[] | undefined;
  set(unit: string, key: string, files: OutputFile[]): void;
}

/** What emitters may know besides the model. Emitters never touch the file system themselves. */
export interface EmitContext {
  /** The text of a file currently in the output root, if any (to carry package versions forward). */
  readExisting(path: string): string | undefined;
  /** Optional memo of expensive units; emitters must produce the same files with or without it. */
  cache?: EmitCache;
}

/** Every emitter has this signature: a pure function from the model to files. */
export type Emitter = (model: Catalogue, context: EmitContext) => OutputFile[] | Promise<OutputFile[]>;

/** Deterministic JSON: two-space indent, trailing newline (key order is fixed by construction). */
export function jsonFile(path: string, value: unknown): OutputFile {
  return { path, contents: `${JSON.stringify(value, null, 2)}\n` };
}

/** A catalogue-wide document as `<path>.json` plus a `<path>.yaml` copy that carries the generated note. */
export function documentFiles(path: string, document: unknown): OutputFile[] {
  return [
    jsonFile(`${path}.json`, document),
    {
      path: `${path}.yaml`,
      contents: `# ${generatedNote('catalogue/')}\n${documentYaml(document)}`,
    },
  ];
}

/** Map levels written entry by entry: the document, `components`, `components.schemas`. */
const CHUNKED_DEPTH = 3;

/**
 * `stringify(document, { lineWidth: 0 })`, byte for byte, written one map entry at a time down to
 * `CHUNKED_DEPTH` levels: yaml builds a node for every value before writing any, and at 10,000 events
 * the two documents' nodes were the build's peak memory. A block map's entries are written
 * independently of one another (each on its own lines, indented by its depth; no line folding), so an
 * entry written alone and indented is the same text. A document with an object in two places is
 * written whole: yaml writes the second as an alias of the first. `yaml-chunks.test.ts` compares the
 * two on every document eventry writes and on generated ones.
 */
export function documentYaml(document: unknown): string {
  if (!isBlockMap(document) || hasSharedObjects(document)) return stringify(document, YAML_OPTIONS);
  const out: string[] = [];
  writeEntries(document, '', CHUNKED_DEPTH, out);
  return out.join('');
}

function writeEntries(map: Record<string, unknown>, indent: string, depth: number, out: string[]): void {
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (depth > 1 && isBlockMap(value)) {
      // The key alone (a key yaml would not write plain keeps the whole pair, written by yaml).
      const head = yamlKey(key);
      if (head !== undefined) {
        out.push(`${indent}${head}\n`);
        writeEntries(value, `${indent}  `, depth - 1, out);
        continue;
      }
    }
    const direct = writeYamlPair(key, value, indent);
    if (direct !== undefined) {
      out.push(direct);
      continue;
    }
    const text = stringify({ [key]: value }, YAML_OPTIONS);
    out.push(indent === '' ? text : text.replace(/^(?=.)/gm, indent));
  }
}

/** A non-empty plain object: yaml writes it as a block map (an empty one is `{}`). */
function isBlockMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.keys(value).length > 0;
}

function hasSharedObjects(root: unknown): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (seen.has(value)) return true;
    seen.add(value);
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child);
  }
  return false;
}
