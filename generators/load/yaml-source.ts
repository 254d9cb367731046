import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, type Pair, type YAMLMap } from 'yaml';
import type { SourceLocation } from '../model.js';
import type { CatalogueProblem, ProblemCode } from './problem.js';
import type { CatalogueSourceFile } from './sources.js';
import { type ParsedDocument, readYamlDocument } from './yaml-document.js';

/**
 * A collection or scalar of a file another parser read (`YamlSource.fromPlain`), with the offset
 * `yaml` gives the same node (`range[0]`), so locations read the same whichever parser read the file.
 */
export interface LocatedNode {
  readonly offset: number;
  /** A mapping's entries by key (first occurrence), with the key's own offset. */
  readonly entries?: Map<string, { key: number; value: LocatedNode }>;
  /** A sequence's items. */
  readonly items?: LocatedNode[];
}

/** What another parser read of a file: the value and the location of every node in it. */
export interface PlainYaml {
  value: unknown;
  root: LocatedNode;
}

/** A parsed file: its source when it has a value, and its located YAML problems. */
export interface ParsedFile {
  source?: YamlSource;
  problems: CatalogueProblem[];
}

/** A parsed YAML file that can turn any JSON path inside it into a `file:line:column`. */
export class YamlSource {
  readonly file: string;
  readonly value: unknown;
  /** Exactly one of `doc` (read by `yaml`) and `root` (read by another parser) is set. */
  private readonly doc: ParsedDocument | undefined;
  private readonly root: LocatedNode | undefined;
  private readonly lines: LineCounter;
  private readonly text: string;
  private readonly keyIndex = new WeakMap<YAMLMap, Map<string, Pair>>();

  private constructor(
    file: string,
    tree: { doc: ParsedDocument } | { root: LocatedNode },
    lines: LineCounter,
    value: unknown,
    text: string,
  ) {
    this.file = file;
    this.text = text;
    this.doc = 'doc' in tree ? tree.doc : undefined;
    this.root = 'root' in tree ? tree.root : undefined;
    this.lines = lines;
    this.value = value;
  }

  /** Whether another parser read this file (for the tests that hold it to the `yaml` path). */
  get fast(): boolean {
    return this.root !== undefined;
  }

  /**
   * Parses a file with `yaml` (the reference parse); YAML errors come back as located problems. A file
   * with syntax errors, aliases that cannot be expanded or nesting too deep to walk has no source;
   * duplicate keys still give one, so its other problems are reported in the same run.
   */
  static parse(source: CatalogueSourceFile): ParsedFile {
    const { problems, read } = readYamlDocument(source);
    if (!read) return { problems };
    return {
      source: new YamlSource(source.path, { doc: read.doc }, read.lines, read.value, source.text),
      problems,
    };
  }

  /**
   * A file another parser read (an accelerator's: `LoadAccelerator.parse`), located by the offsets
   * `yaml` would give its nodes; the file has no problems.
   */
  static fromPlain(source: CatalogueSourceFile, plain: PlainYaml): YamlSource {
    return new YamlSource(source.path, plain, countLines(source.text), plain.value, source.text);
  }

  /** Location of the value at `path` (or of the nearest ancestor that exists). */
  at(path: readonly (string | number)[]): SourceLocation {
    if (this.root) return this.position(this.locatedAt(this.root, path).offset);
    return this.locate(this.nodeAt(path));
  }

  /** Location of the key of the mapping entry at `path` (falls back to the value). */
  keyAt(path: readonly (string | number)[]): SourceLocation {
    const parentPath = path.slice(0, -1);
    const key = path[path.length - 1];
    if (this.root) {
      const entry = this.locatedAt(this.root, parentPath).entries?.get(String(key));
      return entry ? this.position(entry.key) : this.at(path);
    }
    const parent = this.nodeAt(parentPath);
    if (isMap(parent)) {
      const pair = this.pairOf(parent, String(key));
      if (pair && isScalar(pair.key)) return this.locate(pair.key);
    }
    return this.at(path);
  }

  /**
   * Location of character `index` of the string `value` at `path` (a rule's expression), where the
   * source writes it as it reads (plain or quoted on one line, a literal block); else the value's own.
   */
  within(path: readonly (string | number)[], value: string, index: number): SourceLocation {
    const start = this.root ? this.locatedAt(this.root, path).offset : (this.nodeAt(path)?.range?.[0] ?? 0);
    return this.position(offsetWithin(this.text, start, value, index) ?? start);
  }

  /** Builds a problem located at a value (or at a key with `onKey`). */
  problem(
    code: ProblemCode,
    path: readonly (string | number)[],
    message: string,
    hint?: string,
    onKey = false,
  ): CatalogueProblem {
    const location = onKey ? this.keyAt(path) : this.at(path);
    return { code, message, ...(hint ? { hint } : {}), ...location, pointer: toPointer(path) };
  }

  /** `nodeAt` for a plain parse: the node at `path`, or the nearest ancestor that exists. */
  private locatedAt(root: LocatedNode, path: readonly (string | number)[]): LocatedNode {
    let found = root;
    for (const segment of path) {
      const next = found.entries
        ? found.entries.get(String(segment))?.value
        : found.items && typeof segment === 'number'
          ? found.items[segment]
          : undefined;
      if (!next) break;
      found = next;
    }
    return found;
  }

  private nodeAt(path: readonly (string | number)[]): Node | undefined {
    let node: unknown = this.doc!.contents;
    let found = node as Node | undefined;
    for (const segment of path) {
      if (isMap(node)) {
        node = this.pairOf(node, segment)?.value ?? undefined;
      } else if (isSeq(node) && typeof segment === 'number') {
        node = node.items[segment];
      } else {
        break;
      }
      if (node === undefined || node === null) break;
      if (isPair(node)) node = node.value;
      found = node as Node;
    }
    return found;
  }

  /**
   * The first entry of `map` whose scalar key reads as `key`. Every event and field is located once, so
   * each mapping is indexed on first use rather than scanned per lookup (quadratic in a large group).
   */
  private pairOf(map: YAMLMap, key: string | number): Pair | undefined {
    let index = this.keyIndex.get(map);
    if (!index) {
      index = new Map();
      for (const item of map.items) {
        if (!isScalar(item.key)) continue;
        const name = String(item.key.value);
        if (!index.has(name)) index.set(name, item);
      }
      this.keyIndex.set(map, index);
    }
    return index.get(String(key));
  }

  private locate(node: Node | undefined): SourceLocation {
    return this.position(node?.range?.[0] ?? 0);
  }

  private position(offset: number): SourceLocation {
    const pos = this.lines.linePos(offset);
    return { file: this.file, line: pos.line, column: pos.col };
  }
}

/**
 * The offset in `text` of character `index` of `value`, a scalar starting at `start`: each of its lines
 * is found in turn with nothing but indentation, a quote or a block indicator before it; undefined when
 * the source spells it otherwise (escapes, folding).
 */
function offsetWithin(text: string, start: number, value: string, index: number): number | undefined {
  const lines = value.split('\n');
  let cursor = start;
  let consumed = 0;
  for (const line of lines) {
    const at = text.indexOf(line, cursor);
    if (at < 0 || !/^["'|>+\-0-9]*[ \t]*(\r?\n[ \t]*)*$/.test(text.slice(cursor, at))) return undefined;
    if (index <= consumed + line.length) return at + (index - consumed);
    consumed += line.length + 1;
    cursor = at + line.length;
  }
  return undefined;
}

/** The line starts of `text`, as yaml's lexer records them (a plain parse declines any `\r`). */
function countLines(text: string): LineCounter {
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines.addNewLine(at + 1);
  return lines;
}

/** The path of an RFC 6901 JSON Pointer; numeric segments become numbers, so sequence items resolve. */
export function fromPointer(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part.replaceAll('~1', '/').replaceAll('~0', '~')));
}

/** RFC 6901 JSON Pointer of a path. */
export function toPointer(path: readonly (string | number)[]): string {
  return path.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
