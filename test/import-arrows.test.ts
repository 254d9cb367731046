import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';
import { type Edge, findCycles, importGraph } from './import-graph.js';

/**
 * The toolkit's house rules: imports run one way, `model` <- `schema` <- `load` <- `emit` <- `execute`,
 * with the rooms beside the pipeline on floors of their own (`FLOORS`: `check` above `diff`, `lint` and
 * `release`, `serve` above `schema-registry`, `mcp` above them all) and `cli` on top; and no import cycle
 * anywhere in generators/ and scripts/, static or through dynamic `import()`.
 */

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
 * The rooms beside the pipeline, by floor: they read the model (through `load` and `schema` as well),
 * never the emitters, the build or the CLI, and a room imports only rooms on a lower floor than its own
 * (two rooms on one floor know nothing of each other). The floors are those today's imports need
 * (docs/decisions/0106): `diff` compares, `lint` judges with the diff's helpers, `release` bumps from
 * the diff and finds releases through `sources`, `check` runs the gate over diff, lint, release and
 * sources, `schema-registry` models the release history, `serve` and `docs` show it, `mcp` offers it all.
 */
const FLOORS: Readonly<Record<string, number>> = {
  diff: 0,
  publish: 0,
  usage: 0,
  validate: 0,
  lint: 1,
  sources: 1,
  release: 2,
  check: 3,
  'schema-registry': 3,
  docs: 4,
  serve: 4,
  mcp: 5,
};

/** The room beside the pipeline a path is in, or undefined. */
function besideRoom(path: string): string | undefined {
  const [root, top] = path.split('/');
  return root === 'generators' && top !== undefined && top in FLOORS ? top : undefined;
}

/** Whether an import between two rooms beside the pipeline runs down: to the same room or a lower floor. */
function runsDown(from: string, to: string): boolean {
  const source = besideRoom(from);
  const target = besideRoom(to);
  if (source === undefined || target === undefined || source === target) return true;
  return FLOORS[target]! < FLOORS[source]!;
}

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
  if (['model.ts', 'model-digest.ts', 'model-location.ts', 'model-migration.ts'].includes(top))
    return 'model';
  if (top === 'schema') return 'schema';
  if (top === 'cel' || top === 'migrate') return 'schema';
  if (top in FLOORS) return 'beside';
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
    if (
      !ALLOWED[source].includes(target) ||
      !runsDown(from, to) ||
      (to.startsWith(FAST_LOAD) && !mayUseFastLoad(from))
    ) {
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

  it('runs one way: model <- schema <- load <- emit <- execute, the rooms beside on their floors, cli on top', () => {
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
      'generators/release/changelog.ts',
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
    ['the diff importing the release', 'generators/diff/gate.ts', 'generators/release/base.ts'],
    ['the diff importing the gate', 'generators/diff/gate.ts', 'generators/check/run.ts'],
    ['the lint importing the gate', 'generators/lint/gate.ts', 'generators/check/run.ts'],
    ['the release importing the gate', 'generators/release/base.ts', 'generators/check/run.ts'],
    [
      'the registry importing its server',
      'generators/schema-registry/registry.ts',
      'generators/serve/server.ts',
    ],
    ['one room importing another on its floor', 'generators/serve/server.ts', 'generators/docs/site.ts'],
    ['the gate importing the MCP server', 'generators/check/run.ts', 'generators/mcp/server.ts'],
    ['the gate importing an emitter', 'generators/check/run.ts', 'generators/emit/openapi.ts'],
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
    ['the gate importing the diff', 'generators/check/run.ts', 'generators/diff/gate.ts'],
    ['the gate importing the lint', 'generators/check/run.ts', 'generators/lint/gate.ts'],
    ['the gate importing the release', 'generators/check/sides.ts', 'generators/release/base.ts'],
    [
      'the server importing the registry',
      'generators/serve/server.ts',
      'generators/schema-registry/registry.ts',
    ],
    ['the MCP server importing the gate', 'generators/mcp/check-tools.ts', 'generators/check/run.ts'],
    ['the CLI importing the gate', 'generators/cli/check.ts', 'generators/check/run.ts'],
  ])('allow %s', (_name, from, to) => {
    expect(findBackArrows([edge(from, to)])).toEqual([]);
  });
});
