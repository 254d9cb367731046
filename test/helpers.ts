import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, inject, it } from 'vitest';
import type { EmitCache } from '../generators/execute/fast/emit-context.js';
import { loadCatalogue } from '../generators/load/index.js';
import type { Catalogue } from '../generators/model.js';

/** The repository root. */
export const REPO = fileURLToPath(new URL('..', import.meta.url));

/**
 * Every fixture catalogue folder (one holding `eventry.config.yaml`), at any depth under `test/fixtures`,
 * but the bad corpus (`test/fixtures/bad`, which does not load and has its own set-up); sorted.
 */
export function fixtureCatalogues(dir = join(REPO, 'test', 'fixtures')): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (!entry.isDirectory() || path === join(REPO, 'test', 'fixtures', 'bad')) continue;
    if (statSync(join(path, 'eventry.config.yaml'), { throwIfNoEntry: false })?.isFile()) found.push(path);
    else found.push(...fixtureCatalogues(path));
  }
  return found.sort();
}

/**
 * Edits one group of a catalogue on disk: gives the group file a `description:` before its `title:`
 * (the edit the incremental-build tests make: that group's package changes, no other).
 */
export function describeGroup(groupFile: string, description: string): void {
  writeFileSync(
    groupFile,
    readFileSync(groupFile, 'utf8').replace('title: ', `description: ${description}\n  title: `),
  );
}

/** A fixture catalogue's folder, e.g. `fixturePath('small')`. */
export function fixturePath(name: string): string {
  return join(REPO, 'test', 'fixtures', name, 'catalogue');
}

/**
 * The compiled toolkit (`npm run build:tool`, which `npm test` runs first; `test/global-setup.ts` refuses
 * a stale one): the one place tests know it is `dist/`. Give a path below it (`'scripts/eventry.js'`).
 */
export function compiledToolkitPath(...path: string[]): string {
  return join(REPO, 'dist', ...path);
}

/** Loads a catalogue that must be valid; fails the test with its problems otherwise. */
export function loadValid(dir: string): Catalogue {
  const result = loadCatalogue(dir);
  if (!result.ok)
    throw new Error(`expected a valid catalogue in ${dir}: ${JSON.stringify(result.problems, null, 2)}`);
  return result.catalogue;
}

/**
 * The group packages of the repository's catalogue, built once per test run by `test/global-setup.ts`
 * (the checkout's `packages/` keeps only what git reviews, not the generated code).
 */
export function seedPackages(): string {
  return inject('seedPackages');
}

/** The folders `tempDir` made in this test file, removed after it by `test/setup.ts`. */
const madeTempDirs: string[] = [];

/** A fresh temporary folder, removed when the test file ends. */
export function tempDir(prefix = 'eventry-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeTempDirs.push(dir);
  return dir;
}

/** Removes every folder `tempDir` made in this test file (a run leaves nothing behind in the temp folder). */
export function removeTempDirs(): void {
  for (const dir of madeTempDirs.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** Runs the compiled CLI (`npm run build:tool` first) and returns its exit code and output. */
export function runCli(args: string[], options: { cwd?: string; input?: string } = {}) {
  const result = spawnSync(process.execPath, [compiledToolkitPath('scripts/eventry.js'), ...args], {
    cwd: options.cwd ?? REPO,
    input: options.input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** What a type-check of a consumer project gave: tsc's exit status, its output, and the errors in its files. */
export interface TypeCheck {
  status: number | null;
  output: string;
  /** The errors tsc reports in the project's own `files`, as `TSxxxx (line N)`, in order. */
  errors: string[];
}

/**
 * Type-checks a consumer project at `root` (its `node_modules` holding what it imports) with the
 * repository's `tsc` and a strict consumer's options (NodeNext, no ambient types, declaration files
 * checked: `skipLibCheck: false`), `options` on top; writes its `tsconfig.json` listing `files`.
 */
export function typeCheckProject(
  root: string,
  files: readonly string[],
  options: Record<string, unknown> = {},
): TypeCheck {
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    ...options,
  };
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
  const result = spawnSync(join(REPO, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  const output = `${result.stdout}${result.stderr}`;
  const errors = [...output.matchAll(/^(\S+\.ts)\((\d+),\d+\): error (TS\d+)/gm)]
    .filter((m) => files.includes(m[1]!))
    .map((m) => `${m[3]} (line ${m[2]})`);
  return { status: result.status, output, errors };
}

/** An optional resource some tests need: its path, or why it is absent and how to provide it. */
export type OptionalResource = { found: true; path: string } | { found: false; notice: string };

/** How to look for an optional resource (see `optionalResource`). */
export interface OptionalResourceSpec {
  /** What it is, for the notice: "Chromium", "the platform's event catalogue document". */
  what: string;
  /** The environment variable naming it; when set, it is the only place looked at. */
  envVar: string;
  /** Where to look when the variable is not set, in order. */
  candidates: readonly string[];
  /** What is skipped without it, for the notice: "the browser tests". */
  skips: string;
  /** How to get it, for the notice: "apt-get install chromium". */
  get?: string;
}

/** Whether `env` says this is a CI run (`CI=true`, or any value but empty, `0` and `false`). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/**
 * Finds an optional resource: the path in `spec.envVar` when that is set (a set path that does not exist
 * means absent, never a silent fall-back to another copy), else the first of `spec.candidates` that
 * exists. Absent is a skip with a notice, except in CI, which provides every resource: there it throws.
 */
export function optionalResource(
  spec: OptionalResourceSpec,
  env: NodeJS.ProcessEnv = process.env,
): OptionalResource {
  const explicit = env[spec.envVar];
  const places = explicit ? [explicit] : spec.candidates;
  const path = places.find((p) => statSync(p, { throwIfNoEntry: false })?.isFile());
  if (path !== undefined) return { found: true, path };
  const where = explicit
    ? `${spec.envVar}=${explicit} does not exist`
    : `looked at ${spec.candidates.join(', ')}`;
  const enable = `set ${spec.envVar} to its path${spec.get ? ` (${spec.get})` : ''}`;
  if (isCi(env)) {
    throw new Error(`${spec.what} not found (${where}), and CI (CI=${env.CI}) needs it: ${enable}.`);
  }
  return {
    found: false,
    notice: `SKIPPED ${spec.skips}: ${spec.what} not found (${where}); to run them, ${enable}`,
  };
}

/**
 * A suite that needs `resource`: declared with the resource's path when it is found, otherwise one skipped
 * test named by the notice (counted in the summary's "skipped"), also written to stderr so that every
 * reporter shows it.
 */
export function describeWithResource(
  title: string,
  resource: OptionalResource,
  body: (path: string) => void,
): void {
  if (resource.found) {
    describe(title, () => body(resource.path));
    return;
  }
  console.warn(`${title}: ${resource.notice}`);
  describe(title, () => {
    it.skip(resource.notice);
  });
}

/**
 * An in-memory emit cache that only keeps values from one "build" to the next (`recall`/`keep`, as
 * the disk cache does, structured-cloned as the disk would); `kept` is what it holds, by unit.
 */
export function keptOnlyCache(): { cache: EmitCache; kept: Map<string, unknown> } {
  const kept = new Map<string, unknown>();
  const cache: EmitCache = {
    recall: (unit) => structuredClone(kept.get(unit)),
    keep: (unit, value) => void kept.set(unit, structuredClone(value)),
  };
  return { cache, kept };
}
