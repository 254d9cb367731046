import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
// A full TypeScript parser, so `import type`, `export … from` and `import()` in any position count,
// and a specifier in a comment or a string does not. (Installed with jest; no dependency-graph tool is.)
import { parse } from '@babel/parser';
import { REPO } from './helpers.js';

// The import graph of generators/ and scripts/, read from the sources, and its cycles: what
// `import-arrows.test.ts` holds to the house rules.

/** One import of one file: the file it names (repo-relative, `/`-separated) and how. */
export interface Edge {
  from: string;
  to: string;
  dynamic: boolean;
}

/** Every import cycle (Tarjan's strongly connected components of more than one file, or a self-import). */
export function findCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    next.get(from)!.push(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (next.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

interface AstNode {
  type: string;
  [key: string]: unknown;
}

/** The relative specifiers a TypeScript module imports, re-exports or `import()`s, and which are dynamic. */
function importsOf(code: string, file: string): { specifier: string; dynamic: boolean }[] {
  const ast = parse(code, { sourceType: 'module', plugins: ['typescript'], sourceFilename: file });
  const found: { specifier: string; dynamic: boolean }[] = [];
  const stringValue = (node: unknown): string | undefined => {
    const candidate = node as AstNode | null | undefined;
    if (candidate?.type === 'StringLiteral') return candidate.value as string;
    return undefined;
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    if (!node || typeof node !== 'object' || typeof (node as AstNode).type !== 'string') return;
    const current = node as AstNode;
    if (
      current.type === 'ImportDeclaration' ||
      current.type === 'ExportNamedDeclaration' ||
      current.type === 'ExportAllDeclaration'
    ) {
      const specifier = stringValue(current.source);
      if (specifier !== undefined) found.push({ specifier, dynamic: false });
    }
    if (current.type === 'CallExpression' && (current.callee as AstNode).type === 'Import') {
      const specifier = stringValue((current.arguments as unknown[])[0]);
      if (specifier !== undefined) found.push({ specifier, dynamic: true });
    }
    if (current.type === 'TSImportType') {
      const argument = current.argument as AstNode;
      const specifier = stringValue(argument.type === 'TSLiteralType' ? argument.literal : argument);
      if (specifier !== undefined) found.push({ specifier, dynamic: false });
    }
    for (const [key, value] of Object.entries(current)) {
      if (key !== 'loc' && key !== 'start' && key !== 'end' && value && typeof value === 'object')
        walk(value);
    }
  };
  walk(ast.program);
  return found;
}

/** Every `.ts` file below `dir`, repo-relative and `/`-separated. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${dir}/${name.split(sep).join('/')}`)
    .sort();
}

/** The import graph of generators/ and scripts/: every relative import, resolved to the file it names. */
export function importGraph(): Edge[] {
  const edges: Edge[] = [];
  for (const file of [...sourceFiles('generators'), ...sourceFiles('scripts')]) {
    const code = readFileSync(join(REPO, file), 'utf8');
    for (const { specifier, dynamic } of importsOf(code, file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(REPO, dirname(file), specifier);
      // The compiled `.js` a specifier names is the `.ts` beside it in the source tree, or, for a module
      // the site ships as it is (the portal's `minisearch.js`), the declaration beside it.
      const ts = target.replace(/\.js$/, '.ts');
      const dts = target.replace(/\.js$/, '.d.ts');
      const found = existsSync(ts) ? ts : existsSync(dts) ? dts : target;
      edges.push({ from: file, to: relative(REPO, found).split(sep).join('/'), dynamic });
    }
  }
  return edges;
}
