import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
// A full TypeScript parser, as the import-arrows test uses: a code in a comment does not count, one in
// a type, a template or a constructor call does.
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';
import { ERROR_CODE_REGISTRY, type ErrorArea, httpStatusOf } from '../../generators/shared/error-codes.js';
import { REPO } from '../helpers.js';

/** One place the source gives an error its code. */
interface CodeUse {
  code: string;
  where: string;
}

/** One file to scan: its repo-relative path and its text. */
interface SourceText {
  path: string;
  text: string;
}

interface AstNode {
  type: string;
  loc?: { start: { line: number } };
  [key: string]: unknown;
}

/** The registry's own file, whose keys are the codes: what it lists is not a use. */
const REGISTRY_FILE = 'generators/shared/error-codes.ts';
const LOAD_AREA_FILE = 'generators/shared/error-codes-load.ts';

/** What a code looks like: kebab-case or snake_case, or a number (Confluent and JSON-RPC codes). */
const CODE_SHAPE = /^(-?[0-9]+|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*)$/;

/** `error <code>:` in a printed line, as every command prints a coded error. */
const PRINTED_CODE = /\berror ([a-z][a-z0-9]*(?:[-_][a-z0-9]+)+):/g;

const isNode = (value: unknown): value is AstNode =>
  typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';

/** Every node below `node`, depth first. */
function* nodesOf(node: unknown): Generator<AstNode> {
  if (Array.isArray(node)) {
    for (const child of node) yield* nodesOf(child);
    return;
  }
  if (!isNode(node)) return;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'loc' && value && typeof value === 'object') yield* nodesOf(value);
  }
}

/** The literal codes an expression can be: a string, a number, either branch of a `?:`. */
function literalsOf(node: unknown): string[] {
  if (!isNode(node)) return [];
  if (node.type === 'StringLiteral' || node.type === 'NumericLiteral') return [String(node.value)];
  if (node.type === 'UnaryExpression' && node.operator === '-' && isNode(node.argument))
    return literalsOf(node.argument).map((value) => `-${value}`);
  if (node.type === 'ConditionalExpression')
    return [...literalsOf(node.consequent), ...literalsOf(node.alternate)];
  if (node.type === 'TSAsExpression' || node.type === 'TSSatisfiesExpression')
    return literalsOf(node.expression);
  return [];
}

/** The literal types of a type annotation: `'a'`, or `'a' | 'b'`. */
function literalTypesOf(node: unknown): string[] {
  if (!isNode(node)) return [];
  if (node.type === 'TSTypeAnnotation') return literalTypesOf(node.typeAnnotation);
  if (node.type === 'TSLiteralType') return literalsOf(node.literal);
  if (node.type === 'TSUnionType') return (node.types as unknown[]).flatMap(literalTypesOf);
  return [];
}

const nameOf = (node: unknown): string | undefined => {
  if (!isNode(node)) return undefined;
  if (node.type === 'Identifier') return node.name as string;
  if (node.type === 'StringLiteral') return node.value as string;
  if (node.type === 'AssignmentPattern') return nameOf(node.left);
  if (node.type === 'TSParameterProperty') return nameOf(node.parameter);
  return undefined;
};

/** Which argument is the `code`, by name: of functions (`f(...)`), methods (`x.f(...)`) and classes (`new F(...)`). */
interface CodeParameters {
  functions: Map<string, number>;
  methods: Map<string, number>;
  classes: Map<string, number>;
}

/** A parameter that carries an error code: named `code`, and not a number of another kind (a colour, an exit). */
const isCodeParameter = (param: unknown): boolean => {
  const typed = param as { typeAnnotation?: { typeAnnotation?: AstNode } };
  return nameOf(param) === 'code' && typed.typeAnnotation?.typeAnnotation?.type !== 'TSNumberKeyword';
};

/** The code parameters one program defines (`into`), or all programs when called for each. */
function collectCodeParameters(ast: AstNode, into: CodeParameters): void {
  const record = (map: Map<string, number>, name: string | undefined, params: unknown) => {
    if (name === undefined) return;
    map.set(name, (params as unknown[]).findIndex(isCodeParameter));
  };
  for (const node of nodesOf(ast)) {
    if (node.type === 'FunctionDeclaration') record(into.functions, nameOf(node.id), node.params);
    if ((node.type === 'ClassMethod' || node.type === 'TSDeclareMethod') && node.kind !== 'constructor')
      record(into.methods, nameOf(node.key), node.params);
    if (node.type === 'VariableDeclarator' && isNode(node.init)) {
      const init = node.init;
      if (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression')
        record(into.functions, nameOf(node.id), init.params);
    }
    if (node.type === 'ClassDeclaration') {
      const members = ((node.body as AstNode).body as AstNode[]) ?? [];
      const made = members.find((member) => member.kind === 'constructor');
      record(into.classes, nameOf(node.id), made?.params ?? []);
    }
  }
}

const noParameters = (): CodeParameters => ({ functions: new Map(), methods: new Map(), classes: new Map() });

/** Which argument of a call or `new` is the code: a name defined in the file itself first, then anywhere. */
function codeArgument(node: AstNode, local: CodeParameters, all: CodeParameters): number | undefined {
  const callee = node.callee;
  if (!isNode(callee)) return undefined;
  const find = (kind: keyof CodeParameters, name: string | undefined) =>
    name === undefined ? undefined : (local[kind].get(name) ?? all[kind].get(name));
  if (node.type === 'NewExpression') return find('classes', nameOf(callee));
  if (callee.type === 'MemberExpression') return find('methods', nameOf(callee.property));
  return find('functions', nameOf(callee));
}

/** The name a call or `new` calls: `f(...)`, `x.f(...)`, `new F(...)`. */
function calleeName(node: AstNode): string | undefined {
  const callee = node.callee;
  if (!isNode(callee)) return undefined;
  if (callee.type === 'MemberExpression') return nameOf(callee.property);
  return nameOf(callee);
}

/**
 * Every place the sources give an error a literal code: a `code` (or `error_code`) property, a `code`
 * type, a `…Code` type alias, a `const code =`, the `code` argument of a call or `new`, an object of
 * codes (`…_CODES`), and `error <code>:` in a printed string.
 */
function codeUses(files: readonly SourceText[]): CodeUse[] {
  const programs = files.map((file) => ({
    file,
    ast: parse(file.text, { sourceType: 'module', plugins: ['typescript'], sourceFilename: file.path })
      .program as unknown as AstNode,
  }));
  const all = noParameters();
  for (const { ast } of programs) collectCodeParameters(ast, all);
  const uses: CodeUse[] = [];
  for (const { file, ast } of programs) {
    const local = noParameters();
    collectCodeParameters(ast, local);
    const add = (codes: readonly string[], node: AstNode) => {
      for (const code of codes.filter((text) => CODE_SHAPE.test(text)))
        uses.push({ code, where: `${file.path}:${node.loc?.start.line ?? 0}` });
    };
    for (const node of nodesOf(ast)) {
      const key = nameOf(node.key);
      if (node.type === 'ObjectProperty' && key === 'code') {
        add(
          literalsOf(node.value).filter((code) => Number.isNaN(Number(code))),
          node,
        );
      }
      if (node.type === 'ObjectProperty' && key === 'error_code') add(literalsOf(node.value), node);
      // A coded error class: `readonly code = 'toolkit-not-built'`.
      if (node.type === 'ClassProperty' && key === 'code') add(literalsOf(node.value), node);
      if (node.type === 'TSPropertySignature' && key === 'code')
        add(literalTypesOf(node.typeAnnotation), node);
      if (node.type === 'TSTypeAliasDeclaration' && /Code$/.test(nameOf(node.id) ?? ''))
        add(literalTypesOf(node.typeAnnotation), node);
      if (node.type === 'VariableDeclarator' && nameOf(node.id) === 'code') add(literalsOf(node.init), node);
      if (node.type === 'VariableDeclarator' && /_CODES$/.test(nameOf(node.id) ?? '') && isNode(node.init)) {
        let object: AstNode = node.init;
        while (object.type === 'TSAsExpression' || object.type === 'TSSatisfiesExpression')
          object = object.expression as AstNode;
        for (const property of (object.properties as AstNode[] | undefined) ?? [])
          add(literalsOf(property.value), property);
      }
      if (node.type === 'CallExpression' || node.type === 'NewExpression') {
        const index = codeArgument(node, local, all);
        if (index !== undefined && index >= 0) add(literalsOf((node.arguments as unknown[])[index]), node);
      }
      const texts =
        node.type === 'StringLiteral'
          ? [node.value as string]
          : node.type === 'TemplateLiteral'
            ? (node.quasis as AstNode[]).map((quasi) => (quasi.value as { cooked: string }).cooked)
            : [];
      for (const text of texts)
        add(
          [...text.matchAll(PRINTED_CODE)].map((match) => match[1]!),
          node,
        );
    }
  }
  return uses;
}

/** Every `.ts` file below `dir`, repo-relative and `/`-separated. */
function sourceFiles(dir: string): SourceText[] {
  return readdirSync(join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${dir}/${name.split(sep).join('/')}`)
    .filter((path) => path !== REGISTRY_FILE && path !== LOAD_AREA_FILE)
    .sort()
    .map((path) => ({ path, text: readFileSync(join(REPO, path), 'utf8') }));
}

/** Every registered code, as text (numeric codes as their digits), with its area. */
const registered = Object.entries(ERROR_CODE_REGISTRY as Record<string, ErrorArea>).flatMap(([area, entry]) =>
  Object.keys(entry.codes).map((code) => ({ area, code })),
);
const registeredCodes = new Set(registered.map(({ code }) => code));

/** The codes in `uses` that the registry does not list, with where each is used. */
const unregistered = (uses: readonly CodeUse[]): string[] =>
  uses.filter(({ code }) => !registeredCodes.has(code)).map(({ code, where }) => `${code} (${where})`);

describe('the error-code registry', () => {
  const uses = codeUses([...sourceFiles('generators'), ...sourceFiles('scripts')]);

  it('finds codes wherever the sources give them: types, properties, calls, printed lines, Confluent bodies', () => {
    const found = (code: string, file: string) =>
      uses.some((use) => use.code === code && use.where.startsWith(`${file}:`));
    expect(found('unknown-shape', 'generators/load/parse-type.ts')).toBe(true);
    expect(found('write-failed', 'generators/cli/build.ts')).toBe(true);
    expect(found('docs-package-stale', 'generators/docs/package-files.ts')).toBe(true);
    expect(found('no-registry', 'generators/mcp/check-tools.ts')).toBe(true);
    expect(found('40401', 'generators/serve/errors.ts')).toBe(true);
    expect(found('413', 'generators/serve/request-body.ts')).toBe(true);
    expect(found('-32700', 'generators/mcp/http.ts')).toBe(true);
    expect(found('too_many_problems', 'generators/runtime/run.ts')).toBe(true);
    expect(found('invalid_line', 'generators/validate/payload-stream.ts')).toBe(true);
  });

  it('lists every code the sources use (a code missing from shared/error-codes.ts fails here)', () => {
    expect(unregistered(uses)).toEqual([]);
  });

  it('reports a code planted in a source that the registry does not list, in each way a code is given', () => {
    const planted: SourceText = {
      path: 'generators/planted.ts',
      text: [
        'class PlantedError extends Error { constructor(readonly code: string, message: string) { super(message); } }',
        "export const a = new PlantedError('planted-by-constructor', 'x');",
        "export const b = { code: 'planted-by-property', message: 'x' };",
        "export interface C { code: 'planted-in-a-type' | 'unknown-shape' }",
        'export const d = (path: string) => `eventry: error planted-in-a-message: cannot write ` + path;',
        "export const e = { error_code: 40499, message: 'x' };",
      ].join('\n'),
    };
    expect(unregistered(codeUses([planted])).map((entry) => entry.split(' ')[0])).toEqual([
      'planted-by-constructor',
      'planted-by-property',
      'planted-in-a-type',
      'planted-in-a-message',
      '40499',
    ]);
  });

  it('has no dead entry: every registered code is produced somewhere', () => {
    const used = new Set(uses.map(({ code }) => code));
    expect(
      registered.filter(({ code }) => !used.has(code)).map(({ area, code }) => `${area}: ${code}`),
    ).toEqual([]);
  });

  it('answers each schema-registry error with the HTTP status the registry gives its error_code', () => {
    const file = 'generators/serve/server.ts';
    const errors = sourceFiles('generators/serve').find(
      (source) => source.path === 'generators/serve/errors.ts',
    )!;
    const named = new Map(
      [...errors.text.matchAll(/^ {2}(\w+): (\d+),$/gm)].map((match) => [match[1]!, match[2]!] as const),
    );
    const pairs: string[] = [];
    for (const source of sourceFiles('generators/serve')) {
      const ast = parse(source.text, { sourceType: 'module', plugins: ['typescript'] }).program;
      for (const node of nodesOf(ast)) {
        if (node.type !== 'NewExpression' || calleeName(node) !== 'SchemaRegistryError') continue;
        const [status, code] = node.arguments as AstNode[];
        const codeText =
          code?.type === 'MemberExpression' ? named.get(nameOf(code.property) ?? '') : literalsOf(code)[0];
        pairs.push(`${literalsOf(status)[0]} ${codeText}`);
      }
    }
    expect(pairs.length).toBeGreaterThan(10);
    const wrong = pairs.filter((pair) => {
      const [status, code] = pair.split(' ');
      return code === undefined || !httpStatusOf('serve', code).includes(Number(status));
    });
    expect(wrong, file).toEqual([]);
  });
});
