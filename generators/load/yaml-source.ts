import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type Pair,
  parseDocument,
  visit,
} from 'yaml';
import type { SourceLocation } from '../model.js';
import type { CatalogueProblem, ProblemCode } from './problem.js';
import type { CatalogueSourceFile } from './sources.js';

/** A parsed YAML file that can turn any JSON path inside it into a `file:line:column`. */
export class YamlSource {
  readonly file: string;
  readonly value: unknown;
  private readonly doc: ReturnType<typeof parseDocument>;
  private readonly lines: LineCounter;

  private constructor(file: string, doc: ReturnType<typeof parseDocument>, lines: LineCounter) {
    this.file = file;
    this.doc = doc;
    this.lines = lines;
    this.value = doc.toJS({ maxAliasCount: 100 });
  }

  /** Parses a file; YAML errors (syntax, duplicate keys) come back as problems and no source. */
  static parse(source: CatalogueSourceFile): { source?: YamlSource; problems: CatalogueProblem[] } {
    const lines = new LineCounter();
    const doc = parseDocument(source.text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
    const problems = doc.errors.map((error): CatalogueProblem => {
      const pos = lines.linePos(error.pos[0]);
      const duplicate = error.code === 'DUPLICATE_KEY';
      return {
        code: duplicate ? 'duplicate-key' : 'yaml-syntax',
        message: (duplicate && describeDuplicateKey(doc, lines, error.pos[0])) || firstLine(error.message),
        hint: duplicate
          ? 'Each key may appear once in a mapping; merge the two entries or rename one.'
          : 'Check indentation, quoting and brackets around this position.',
        file: source.path,
        line: pos.line,
        column: pos.col,
      };
    });
    if (problems.length > 0) return { problems };
    return { source: new YamlSource(source.path, doc, lines), problems: [] };
  }

  /** Location of the value at `path` (or of the nearest ancestor that exists). */
  at(path: readonly (string | number)[]): SourceLocation {
    return this.locate(this.nodeAt(path));
  }

  /** Location of the key of the mapping entry at `path` (falls back to the value). */
  keyAt(path: readonly (string | number)[]): SourceLocation {
    const parentPath = path.slice(0, -1);
    const key = path[path.length - 1];
    const parent = this.nodeAt(parentPath);
    if (isMap(parent)) {
      const pair = parent.items.find(
        (item: Pair) => isScalar(item.key) && String(item.key.value) === String(key),
      );
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

  private nodeAt(path: readonly (string | number)[]): Node | undefined {
    let node: unknown = this.doc.contents;
    let found = node as Node | undefined;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isScalar(item.key) && String(item.key.value) === String(segment),
        );
        node = pair?.value ?? undefined;
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

  private locate(node: Node | undefined): SourceLocation {
    const offset = node?.range?.[0] ?? 0;
    const pos = this.lines.linePos(offset);
    return { file: this.file, line: pos.line, column: pos.col };
  }
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
function describeDuplicateKey(
  doc: ReturnType<typeof parseDocument>,
  lines: LineCounter,
  offset: number,
): string | undefined {
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

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
