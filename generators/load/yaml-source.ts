import {
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type Pair,
  Parser,
  visit,
  type YAMLMap,
  YAMLParseError,
} from 'yaml';
import type { SourceLocation } from '../model.js';
import { placeMisalignedKeys } from './misaligned-keys.js';
import type { ParseCache } from './parse-cache.js';
import type { CatalogueProblem, ProblemCode } from './problem.js';
import type { CatalogueSourceFile } from './sources.js';
import { type LocatedNode, type PlainYaml, readPlainYaml } from './yaml-fast.js';

/** Deeper than any catalogue file needs (a field's type sits at depth 6), shallow enough to walk recursively. */
export const MAX_DEPTH = 64;
/** yaml's guard against alias bombs ("billion laughs"): how many times aliases may be expanded. */
const MAX_ALIAS_COUNT = 100;

/** What yaml's `parseDocument` returns: one composed document, its nodes located. */
type ParsedDocument = Document.Parsed;

/** How a file is parsed; the default reads plain files with js-yaml's faster event parser. */
export interface YamlParseOptions {
  /** `false` reads every file with `yaml` (the reference the fast path is held to). */
  fastPath?: boolean;
  /**
   * Files the fast path read, by their text: loads of two catalogues with files in common (the two
   * sides of a diff) read each such file once. The loader never changes what it reads.
   */
  memo?: Map<string, PlainYaml>;
  /** The parses of earlier processes (`eventry build`'s, on disk); the load saves it once its files are read. */
  cache?: ParseCache;
}

/** A parsed YAML file that can turn any JSON path inside it into a `file:line:column`. */
export class YamlSource {
  readonly file: string;
  readonly value: unknown;
  /** Exactly one of `doc` (read by `yaml`) and `root` (read by the fast path) is set. */
  private readonly doc: ParsedDocument | undefined;
  private readonly root: LocatedNode | undefined;
  private readonly lines: LineCounter;
  private readonly keyIndex = new WeakMap<YAMLMap, Map<string, Pair>>();

  private constructor(
    file: string,
    tree: { doc: ParsedDocument } | { root: LocatedNode },
    lines: LineCounter,
    value: unknown,
  ) {
    this.file = file;
    this.doc = 'doc' in tree ? tree.doc : undefined;
    this.root = 'root' in tree ? tree.root : undefined;
    this.lines = lines;
    this.value = value;
  }

  /** Whether this file was read by the fast path (for the tests that hold it to the `yaml` path). */
  get fast(): boolean {
    return this.root !== undefined;
  }

  /**
   * Parses a file; YAML errors come back as located problems. A file with syntax errors, aliases
   * that cannot be expanded or nesting too deep to walk has no source; duplicate keys still give one
   * (the rest of the file is well formed), so its other problems are reported in the same run.
   */
  static parse(
    source: CatalogueSourceFile,
    options: YamlParseOptions = {},
  ): { source?: YamlSource; problems: CatalogueProblem[] } {
    if (options.fastPath !== false) {
      // A file the fast path declines (anything outside the plain subset, or any error) is read below.
      let plain = options.memo?.get(source.text);
      if (plain === undefined) {
        plain = options.cache ? options.cache.read(source.text, readPlainYaml) : readPlainYaml(source.text);
        if (plain) options.memo?.set(source.text, plain);
      }
      if (plain)
        return {
          source: new YamlSource(source.path, plain, countLines(source.text), plain.value),
          problems: [],
        };
    }
    const lines = new LineCounter();
    const at = (offset: number) => {
      const pos = lines.linePos(offset);
      return { file: source.path, line: pos.line, column: pos.col };
    };
    // Lexed and parsed once: the syntax tree is checked for depth, then composed into the document.
    const tokens = [...new Parser(lines.addNewLine).parse(source.text)];
    // Composing a document recurses once per level (and so does everything after it); yaml's parser does
    // not, so its syntax tree is where a runaway nesting is found, before it can overflow the stack.
    const deep = firstTooDeep(tokens);
    if (deep !== undefined) {
      return {
        problems: [
          {
            code: 'too-deep',
            message: `The YAML nests more than ${MAX_DEPTH} levels deep here.`,
            hint: 'A catalogue file needs a handful of levels; look for runaway brackets or indentation here.',
            ...at(deep),
          },
        ],
      };
    }
    const doc = composeDocument(tokens, source.text.length);
    // After a tab used as indentation, yaml reports every following line as mis-nested: only the tabs count.
    const firstTab = doc.errors.find((error) => error.code === 'TAB_AS_INDENT')?.pos[0] ?? Infinity;
    const errors = doc.errors.filter((error) => error.code === 'TAB_AS_INDENT' || error.pos[0] < firstTab);
    const isMisaligned = (error: (typeof errors)[number]) =>
      error.code === 'BAD_INDENT' &&
      error.message.startsWith('All mapping items must start at the same column');
    const misaligned = placeMisalignedKeys(
      doc,
      errors.filter(isMisaligned).map((error) => firstNonBlank(source.text, error.pos[0])),
      (offset) => lines.linePos(offset).col,
    );
    const problemOf = (error: (typeof errors)[number], offset?: number): CatalogueProblem => {
      switch (error.code) {
        case 'DUPLICATE_KEY':
          return {
            code: 'duplicate-key',
            message: describeDuplicateKey(doc, lines, error.pos[0]) ?? firstLine(error.message),
            hint: 'Each key may appear once in a mapping; merge the two entries or rename one.',
            ...at(error.pos[0]),
          };
        case 'TAB_AS_INDENT':
          return {
            code: 'yaml-tab',
            message: 'A tab indents this line; YAML indents with spaces only.',
            hint: 'Replace the tab with spaces, as many as the sibling lines use (set your editor to insert spaces in .yaml files).',
            ...at(error.pos[0]),
          };
        case 'MULTIPLE_DOCS':
          return {
            code: 'yaml-syntax',
            message: 'A second YAML document starts here; a catalogue file holds exactly one.',
            hint: 'Remove the `---` line, or move what follows into a file of its own.',
            ...at(error.pos[0]),
          };
        case 'BAD_INDENT':
          if (offset !== undefined) {
            const first = offset !== firstNonBlank(source.text, error.pos[0]);
            return {
              code: 'yaml-syntax',
              message: first
                ? 'This key is not aligned with the keys below it, the other keys of its mapping.'
                : 'This key is not aligned with the other keys of its mapping.',
              hint: first
                ? 'Indent it with exactly as many spaces as the keys below it.'
                : 'Indent it with exactly as many spaces as the keys above it.',
              ...at(offset),
            };
          }
          break;
      }
      return {
        code: 'yaml-syntax',
        message: firstLine(error.message),
        hint: 'Check indentation, quoting and brackets around this position.',
        ...at(error.pos[0]),
      };
    };
    const located = errors.flatMap((error): CatalogueProblem[] => {
      if (!isMisaligned(error)) return [problemOf(error)];
      const offset = misaligned.get(firstNonBlank(source.text, error.pos[0]));
      return offset === undefined ? [] : [problemOf(error, offset)];
    });
    // yaml may give two messages for one mistake at one place: the first says it.
    const problems = located.filter(
      (problem, i) =>
        located.findIndex((other) => other.line === problem.line && other.column === problem.column) === i,
    );
    if (problems.some((problem) => problem.code !== 'duplicate-key')) return { problems };

    // An alias is written `*name`: a file without a `*` has none, and its tree need not be walked for them.
    const structural = source.text.includes('*') ? checkStructure(doc, at) : [];
    if (structural.length > 0) return { problems: [...problems, ...structural] };
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      // The expansion counts aliases as it goes; a bomb is only known once the count is exceeded.
      if (!(error instanceof ReferenceError) || !/alias count/i.test(error.message)) throw error;
      return {
        problems: [
          ...problems,
          {
            code: 'too-many-aliases',
            message: `Expanding this file's aliases would copy values more than ${MAX_ALIAS_COUNT} times.`,
            hint: 'Write the values out, or use fewer nested aliases (`*name`); this limit stops alias bombs.',
            ...at(firstAlias(doc) ?? 0),
          },
        ],
      };
    }
    return { source: new YamlSource(source.path, { doc }, lines, value), problems };
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

  /** The fast path's `nodeAt`: the node at `path`, or the nearest ancestor that exists. */
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

/** The line starts of `text`, as yaml's lexer records them (the fast path declines any `\r`). */
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

/** `yaml` says only "Map keys must be unique": name the key and where it first appears. */
function describeDuplicateKey(doc: ParsedDocument, lines: LineCounter, offset: number): string | undefined {
  let message: string | undefined;
  visit(doc, {
    Map(_, map) {
      const keyAt = (pair: Pair) => (isScalar(pair.key) ? pair.key : undefined);
      const again = map.items.find((pair) => keyAt(pair)?.range?.[0] === offset);
      if (!again) return undefined;
      const name = keyAt(again)!.value;
      const first = map.items.find((pair) => keyAt(pair)?.value === name);
      const at = lines.linePos(keyAt(first!)?.range?.[0] ?? offset);
      message = `Key \`${String(name)}\` appears twice in this mapping; it is first defined at line ${at.line}, column ${at.col}.`;
      return visit.BREAK;
    },
  });
  return message;
}

/** Aliases to no anchor: yaml only finds them while converting to JavaScript, where it throws. */
function checkStructure(doc: ParsedDocument, at: (offset: number) => SourceLocation): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isAlias(node)) {
      if (!node.resolve(doc)) {
        problems.push({
          code: 'unresolved-alias',
          message: `Alias \`*${node.source}\` refers to no anchor \`&${node.source}\` defined before it.`,
          hint: 'Define the anchor earlier in the same file (`&name value`), or write the value out.',
          ...at(node.range?.[0] ?? 0),
        });
      }
      continue;
    }
    if (!isMap(node) && !isSeq(node)) continue;
    for (const item of node.items) stack.push(...(isPair(item) ? [item.key, item.value] : [item]));
  }
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * The first document of the tokens, as yaml's `parseDocument` composes it (same options, same errors): a
 * second document is reported on the first, as `MULTIPLE_DOCS`. Exported for the test that holds it to that.
 */
export function composeDocument(tokens: CST.Token[], length: number): ParsedDocument {
  // `logLevel: 'error'`: a mapping used as a key is reported as a located problem, not a warning on stderr.
  // `lineWidth: 0`: such a key becomes its one-line text (yaml folds it at 80 columns by default, which
  // quoted `? [a, b]` over several lines in a message).
  const composer = new Composer({
    uniqueKeys: true,
    prettyErrors: false,
    logLevel: 'error',
    toStringDefaults: { lineWidth: 0 },
  });
  let doc: ParsedDocument | undefined;
  for (const next of composer.compose(tokens, true, length)) {
    if (!doc) {
      doc = next;
      continue;
    }
    const [start, end] = next.range;
    doc.errors.push(
      new YAMLParseError(
        [start, end],
        'MULTIPLE_DOCS',
        'Source contains multiple documents; please use YAML.parseAllDocuments()',
      ),
    );
    break;
  }
  // `compose(…, forceDoc = true)` yields a document even for an empty text.
  return doc!;
}

/** Offset of the first collection nested deeper than `MAX_DEPTH`, walking yaml's syntax tree without recursion. */
function firstTooDeep(tokens: readonly CST.Token[]): number | undefined {
  let first: number | undefined;
  const stack: { token: unknown; depth: number }[] = [];
  for (const token of tokens) {
    if (token.type === 'document') stack.push({ token: token.value, depth: 1 });
  }
  while (stack.length > 0) {
    const { token, depth } = stack.pop()!;
    const node = token as CST.Token | undefined;
    if (node?.type !== 'block-map' && node?.type !== 'block-seq' && node?.type !== 'flow-collection')
      continue;
    if (depth > MAX_DEPTH) {
      first = Math.min(first ?? node.offset, node.offset);
      continue;
    }
    for (const item of node.items as { key?: unknown; value?: unknown }[]) {
      stack.push({ token: item.key, depth: depth + 1 }, { token: item.value, depth: depth + 1 });
    }
  }
  return first;
}

function firstAlias(doc: ParsedDocument): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Alias(_, alias) {
      offset = alias.range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}

/** The first non-blank character at or after `offset` on its line (yaml points at the indentation). */
function firstNonBlank(text: string, offset: number): number {
  let i = offset;
  while (text[i] === ' ') i++;
  return text[i] === '\n' || i >= text.length ? offset : i;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
