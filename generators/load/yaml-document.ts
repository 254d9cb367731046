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
  type Pair,
  Parser,
  visit,
  YAMLParseError,
} from 'yaml';
import type { SourceLocation } from '../model.js';
import { placeMisalignedKeys } from './misaligned-keys.js';
import type { CatalogueProblem } from './problem.js';
import type { CatalogueSourceFile } from './sources.js';

// The reference parse of a catalogue file with the `yaml` library, and what turns its errors into
// located problems; `yaml-source.ts` wraps the document it composes.

/** Deeper than any catalogue file needs (a field's type sits at depth 6), shallow enough to walk recursively. */
const MAX_DEPTH = 64;
/** yaml's guard against alias bombs ("billion laughs"): how many times aliases may be expanded. */
const MAX_ALIAS_COUNT = 100;

/** What yaml's `parseDocument` returns: one composed document, its nodes located. */
export type ParsedDocument = Document.Parsed;

/** A file read by `yaml`: its problems and, when it has a value, its document and line starts. */
export interface ReadDocument {
  problems: CatalogueProblem[];
  /** Set when the file has a value (possibly with duplicate keys among its problems). */
  read?: { doc: ParsedDocument; value: unknown; lines: LineCounter };
}

/**
 * Reads a file with `yaml`; YAML errors come back as located problems. A file with syntax errors,
 * aliases that cannot be expanded or nesting too deep to walk has no value; duplicate keys still
 * give one (the rest of the file is well formed), so its other problems are reported in the same run.
 */
export function readYamlDocument(source: CatalogueSourceFile): ReadDocument {
  const lines = new LineCounter();
  const at = (offset: number): SourceLocation => {
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
  const problems = syntaxProblems({ text: source.text, doc, lines, at });
  if (problems.some((problem) => problem.code !== 'duplicate-key')) return { problems };

  // An alias is written `*name`: a file without a `*` has none, and its tree need not be walked for them.
  const structural = source.text.includes('*') ? checkStructure(doc, at) : [];
  if (structural.length > 0) return { problems: [...problems, ...structural] };
  return expandAliases(doc, lines, at, problems);
}

/** What turning yaml's errors into problems reads: the file's text, its document and where offsets are. */
interface ErrorContext {
  text: string;
  doc: ParsedDocument;
  lines: LineCounter;
  at: (offset: number) => SourceLocation;
}

type YamlError = ParsedDocument['errors'][number];

/** yaml's errors of the document as located problems, one per place. */
function syntaxProblems(cx: ErrorContext): CatalogueProblem[] {
  const { text, doc, lines } = cx;
  // After a tab used as indentation, yaml reports every following line as mis-nested: only the tabs count.
  const firstTab = doc.errors.find((error) => error.code === 'TAB_AS_INDENT')?.pos[0] ?? Infinity;
  const errors = doc.errors.filter((error) => error.code === 'TAB_AS_INDENT' || error.pos[0] < firstTab);
  const misaligned = placeMisalignedKeys(
    doc,
    errors.filter(isMisaligned).map((error) => firstNonBlank(text, error.pos[0])),
    (offset) => lines.linePos(offset).col,
  );
  const located = errors.flatMap((error): CatalogueProblem[] => {
    if (!isMisaligned(error)) return [problemOf(cx, error)];
    const offset = misaligned.get(firstNonBlank(text, error.pos[0]));
    return offset === undefined ? [] : [problemOf(cx, error, offset)];
  });
  // yaml may give two messages for one mistake at one place: the first says it.
  return located.filter(
    (problem, i) =>
      located.findIndex((other) => other.line === problem.line && other.column === problem.column) === i,
  );
}

function isMisaligned(error: YamlError): boolean {
  return (
    error.code === 'BAD_INDENT' && error.message.startsWith('All mapping items must start at the same column')
  );
}

/** One yaml error as a problem; a misaligned key's at `offset`, the key that breaks the column. */
function problemOf(
  { text, doc, lines, at }: ErrorContext,
  error: YamlError,
  offset?: number,
): CatalogueProblem {
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
        const first = offset !== firstNonBlank(text, error.pos[0]);
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
}

/** The document's value, its aliases expanded; none, with a problem, past the alias count (a bomb). */
function expandAliases(
  doc: ParsedDocument,
  lines: LineCounter,
  at: (offset: number) => SourceLocation,
  problems: CatalogueProblem[],
): ReadDocument {
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
  return { problems, read: { doc, value, lines } };
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
