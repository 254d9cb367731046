import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
// A full TypeScript parser, so `import type`, `export … from` and `import()` in any position count,
// and a specifier in a comment or a string does not. (Installed with jest; no dependency-graph tool is.)
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

/**
 * The toolkit's house rules: imports run one way, `model` <- `schema` <- `load` <- `emit` <- `execute`,
 * with `diff`, `release`, `publish`, `sources`, `serve`, `schema-registry` and `docs` beside the pipeline and `cli` on top; and no
 * import cycle anywhere in generators/ and scripts/, static or through dynamic `import()`.
 */

/** One import of one file: the file it names (repo-relative, `/`-separated) and how. */
interface Edge {
  from: string;
  to: string;
  dynamic: boolean;
}

/** Where a file sits in the house. */
type Layer =
  | 'shared'
  | 'runtime'
  | 'model'
  | 'schema'
  | 'load'
  | 'emit'
  | 'execute'
  | 'beside'
  | 'cli'
  | 'scripts'
  | 'scripts-entry';

/**
 * The folders beside the pipeline: they read the model, never the emitters, the build or the CLI.
 * (`schema-registry/` is the schema registry's model of the release history; `serve/` its HTTP server; `docs/` the static portal.)
 */
const BESIDE = [
  'diff',
  'release',
  'publish',
  'sources',
  'serve',
  'schema-registry',
  'docs',
  'validate',
  'mcp',
  'lint',
  'usage',
];

/** What each layer may import. Everything not listed is an arrow running back. */
const ALLOWED: Record<Layer, readonly Layer[]> = {
  shared: ['shared'],
  runtime: ['runtime'],
  model: ['model', 'shared'],
  // The JSON Schema of the model's events and shapes, which every emitter, the diff's readers, the
  // sources and the registry share: it reads the model and nothing else.
  schema: ['schema', 'model'],
  // The package run time holds implementations the loader shares with packages (`suggest`).
  load: ['load', 'schema', 'model', 'shared', 'runtime'],
  emit: ['emit', 'load', 'schema', 'model', 'shared', 'runtime'],
  execute: ['execute', 'emit', 'load', 'schema', 'model', 'shared', 'runtime'],
  beside: ['beside', 'load', 'schema', 'model', 'shared', 'runtime'],
  cli: ['cli', 'execute', 'emit', 'load', 'schema', 'model', 'shared', 'runtime', 'beside'],
  // Benchmarks and the registry script measure and drive the toolkit's parts, not its CLI.
  scripts: ['scripts', 'execute', 'emit', 'load', 'schema', 'model', 'shared', 'runtime', 'beside'],
  'scripts-entry': ['cli'],
};

/**
 * Arrows that still run back. Empty since the model step (issue 10): the model owns the event
 * description, "is this object open" and the package name, and `schema/` the JSON Schema of an event.
 * The test fails when one disappears without being struck from this list, so the list only shrinks.
 */
const KNOWN_EXCEPTIONS: readonly string[] = [];

/** The layer of a repo-relative path, or undefined for a path the house does not know yet. */
function layerOf(path: string): Layer | undefined {
  const parts = path.split('/');
  if (parts[0] === 'scripts') return path === 'scripts/eventry.ts' ? 'scripts-entry' : 'scripts';
  if (parts[0] !== 'generators') return undefined;
  const top = parts[1] ?? '';
  if (['model.ts', 'model-digest.ts', 'model-lazy-record.ts'].includes(top)) return 'model';
  if (top === 'schema') return 'schema';
  if (top === 'cel') return 'schema';
  if (BESIDE.includes(top)) return 'beside';
  if (['shared', 'runtime', 'load', 'emit', 'execute', 'cli'].includes(top)) return top as Layer;
  return undefined;
}

/**
 * Within emit/, each emitter is its own unit (a top-level file, or the `package/` folder); an emitter
 * may import the shared `context.ts` and the helpers every emitter may use (`common/`: the documents'
 * writer, model digests), and only `index.ts`, the list of emitters, imports them all.
 */
function emitterUnit(path: string): string | undefined {
  if (!path.startsWith('generators/emit/')) return undefined;
  const rest = path.slice('generators/emit/'.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : rest;
}

/** The loader's speed twins (`load/accelerator.ts` is their seam): only the CLI, the scripts and the fast executor build them. */
const FAST_LOAD = 'generators/execute/fast/load/';

/** Whether `from` may import the fast loader: the plain loader and executor stay readable without it. */
function mayUseFastLoad(from: string): boolean {
  return (
    from.startsWith('generators/execute/fast/') ||
    from.startsWith('generators/cli/') ||
    from.startsWith('scripts/')
  );
}

/** Every arrow that runs back, as `from -> to`. */
function findBackArrows(edges: readonly Edge[]): string[] {
  const back: string[] = [];
  for (const { from, to } of edges) {
    const source = layerOf(from);
    const target = layerOf(to);
    const arrow = `${from} -> ${to}`;
    if (source === undefined || target === undefined) {
      back.push(`${arrow} (unknown folder: place it in the house, in layerOf)`);
      continue;
    }
    if (!ALLOWED[source].includes(target) || (to.startsWith(FAST_LOAD) && !mayUseFastLoad(from))) {
      back.push(arrow);
      continue;
    }
    const fromUnit = emitterUnit(from);
    const toUnit = emitterUnit(to);
    if (
      fromUnit !== undefined &&
      toUnit !== undefined &&
      fromUnit !== toUnit &&
      toUnit !== 'context.ts' &&
      toUnit !== 'common' &&
      fromUnit !== 'index.ts'
    )
      back.push(arrow);
  }
  return back.sort();
}

/** Every import cycle (Tarjan's strongly connected components of more than one file, or a self-import). */
function findCycles(edges: readonly Edge[]): string[][] {
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
function importGraph(): Edge[] {
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

describe('the import graph of generators/ and scripts/', () => {
  const edges = importGraph();

  it('is read from the sources, dynamic import() and type imports included', () => {
    const has = (from: string, to: string, dynamic: boolean) =>
      edges.some((edge) => edge.from === from && edge.to === to && edge.dynamic === dynamic);
    expect(has('generators/execute/fast/index.ts', 'generators/execute/fast/build.ts', true)).toBe(true);
    expect(has('scripts/eventry.ts', 'generators/cli/main.ts', false)).toBe(true);
    expect(has('generators/execute/fast/build.ts', 'generators/emit/context.ts', false)).toBe(true);
  });

  it('has no import cycle', () => {
    expect(findCycles(edges)).toEqual([]);
  });

  it('runs one way: model <- schema <- load <- emit <- execute, sources/diff/release/publish/schema-registry/serve beside, cli on top', () => {
    expect(findBackArrows(edges)).toEqual([...KNOWN_EXCEPTIONS].sort());
  });

  it('imports nothing that is not there', () => {
    const missing = edges.filter((edge) => !existsSync(join(REPO, edge.to)));
    expect(missing).toEqual([]);
  });
});

describe('the house rules themselves', () => {
  const edge = (from: string, to: string, dynamic = false): Edge => ({ from, to, dynamic });

  it('find a cycle through a dynamic import()', () => {
    const cycles = findCycles([
      edge('generators/cli/main.ts', 'generators/cli/commands.ts'),
      edge('generators/cli/commands.ts', 'generators/cli/check.ts', true),
      edge('generators/cli/check.ts', 'generators/cli/main.ts'),
      edge('generators/cli/check.ts', 'generators/model.ts'),
    ]);
    expect(cycles).toEqual([
      ['generators/cli/check.ts', 'generators/cli/commands.ts', 'generators/cli/main.ts'],
    ]);
  });

  it.each([
    ['the model importing the loader', 'generators/model.ts', 'generators/load/index.ts'],
    ['the loader importing an emitter', 'generators/load/index.ts', 'generators/emit/openapi.ts'],
    ['an emitter importing the build', 'generators/emit/openapi.ts', 'generators/execute/write.ts'],
    ['the diff importing an emitter', 'generators/diff/diff.ts', 'generators/emit/openapi.ts'],
    ['a source importing the build', 'generators/sources/folder.ts', 'generators/execute/write.ts'],
    [
      'anything but the entry importing the CLI',
      'generators/release/semver.ts',
      'generators/cli/exit-codes.ts',
    ],
    ['a benchmark importing the CLI', 'scripts/bench/build.ts', 'generators/cli/build.ts'],
    [
      'product code importing the scripts',
      'generators/publish/publish.ts',
      'scripts/npm-registry/local-registry.ts',
    ],
    ['one emitter importing another', 'generators/emit/package/index.ts', 'generators/emit/openapi.ts'],
    ['a folder the house does not know', 'generators/cli/main.ts', 'generators/misc/helper.ts'],
    [
      'the schema layer importing an emitter',
      'generators/schema/json-schema.ts',
      'generators/emit/context.ts',
    ],
    ['the schema layer importing the loader', 'generators/schema/json-schema.ts', 'generators/load/index.ts'],
    ['the model importing the schema layer', 'generators/model.ts', 'generators/schema/json-schema.ts'],
    [
      'the loader importing its accelerators',
      'generators/load/index.ts',
      'generators/execute/fast/load/index.ts',
    ],
    [
      'a source importing the fast loader',
      'generators/sources/git.ts',
      'generators/execute/fast/load/index.ts',
    ],
    [
      'the reference executor importing the fast loader',
      'generators/execute/build.ts',
      'generators/execute/fast/load/fast-load.ts',
    ],
  ])('flag %s', (_name, from, to) => {
    expect(findBackArrows([edge(from, to)])).toHaveLength(1);
  });

  it.each([
    ['the build importing an emitter', 'generators/execute/reference.ts', 'generators/emit/index.ts'],
    ['a source importing the loader', 'generators/sources/git.ts', 'generators/load/index.ts'],
    ['release importing the diff', 'generators/release/changelog.ts', 'generators/diff/rule.ts'],
    ['an emitter importing the shared context', 'generators/emit/openapi.ts', 'generators/emit/context.ts'],
    ['the entry importing the CLI', 'scripts/eventry.ts', 'generators/cli/main.ts'],
    [
      'an emitter importing the schema layer',
      'generators/emit/openapi.ts',
      'generators/schema/components.ts',
    ],
    ['the diff importing the schema layer', 'generators/diff/diff.ts', 'generators/schema/json-schema.ts'],
    ['the schema layer importing the model', 'generators/schema/json-schema.ts', 'generators/model.ts'],
    ['the CLI building a fast loader', 'generators/cli/diff.ts', 'generators/execute/fast/load/index.ts'],
    [
      'the fast loader importing the loader',
      'generators/execute/fast/load/incremental.ts',
      'generators/load/resolve.ts',
    ],
  ])('allow %s', (_name, from, to) => {
    expect(findBackArrows([edge(from, to)])).toEqual([]);
  });
});
