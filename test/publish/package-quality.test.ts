/**
 * Every generated group package and the run time package, packed exactly as `npm publish` would upload
 * it, passes publint and "are the types wrong" (types resolve for Node ESM, and for CommonJS when the
 * package ships it), and carries only what a consumer needs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGroupPackages } from '../../generators/publish/publish.js';
import { compiledToolkitPath, REPO, tempDir } from '../helpers.js';

const work = tempDir('eventry-quality-');
const out = join(work, 'packages');

interface Packed {
  dir: string;
  name: string;
  filename: string;
  files: string[];
}

/** Files a consumer may need: code, types, schemas, docs, the manifest. Nothing else is published. */
const CONSUMER_FILE =
  /^(package\.json|README\.md|CHANGELOG\.md|LICENSE|[\w./-]+\.(js|cjs|mjs|d\.ts|d\.cts|d\.mts|json))$/;
/** What must never be in a tarball: sources, maps, build state, tests, configuration. */
const NEVER = /(\.ya?ml$|\.map$|(^|\/)\.|(^|\/)(test|tests|__tests__)\/|tsconfig|(?<!\.d)\.ts$)/;

let packed: Packed[] = [];

beforeAll(() => {
  const build = spawnSync(
    process.execPath,
    [
      compiledToolkitPath('scripts/eventry.js'),
      'build',
      '--catalogue',
      join(REPO, 'catalogue'),
      '--out',
      out,
    ],
    { encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  const dirs = findGroupPackages(out);
  // One npm run packs them all, exactly as `npm publish` would.
  const pack = spawnSync(
    'npm',
    ['pack', '--json', '--ignore-scripts', `--pack-destination=${work}`, ...dirs],
    {
      encoding: 'utf8',
      cwd: work,
    },
  );
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const results = JSON.parse(pack.stdout) as { name: string; filename: string; files: { path: string }[] }[];
  packed = results.map((result, i) => ({
    dir: dirs[i]!,
    name: result.name,
    filename: join(work, result.filename),
    files: result.files.map((file) => file.path),
  }));
}, 120_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('generated group packages and the run time package', { timeout: 120_000 }, () => {
  it('are the 19 groups of the catalogue and the one run time package', () => {
    expect(packed).toHaveLength(20);
    expect(packed.filter((pkg) => pkg.name === '@platform-events/runtime')).toHaveLength(1);
    expect(packed.find((pkg) => pkg.name === '@platform-events/runtime')!.files.sort()).toEqual([
      'README.md',
      'error-items.d.ts',
      'error-items.js',
      'event-api.d.ts',
      'event-api.js',
      'fast-check.d.ts',
      'fast-check.js',
      'list.d.ts',
      'list.js',
      'matchers.d.ts',
      'matchers.js',
      'migrate.d.ts',
      'migrate.js',
      'options.d.ts',
      'options.js',
      'package.json',
      'run.d.ts',
      'run.js',
      'runtime.d.ts',
      'runtime.js',
      'standard.d.ts',
      'standard.js',
      'suggest.d.ts',
      'suggest.js',
      'testing-repair.d.ts',
      'testing-repair.js',
      'testing-rules.d.ts',
      'testing-rules.js',
      'testing-values.d.ts',
      'testing-values.js',
      'testing.d.ts',
      'testing.js',
      'types.d.ts',
      'types.js',
    ]);
  });

  it('pass publint with no error and no warning', async () => {
    const report: Record<string, string[]> = {};
    for (const pkg of packed) {
      const tarball = readFileSync(pkg.filename);
      // The tarball npm uploads, not the folder: publint reads exactly what consumers install.
      const { messages } = await publint({
        level: 'warning',
        pack: {
          tarball: tarball.buffer.slice(
            tarball.byteOffset,
            tarball.byteOffset + tarball.byteLength,
          ) as ArrayBuffer,
        },
      });
      if (messages.length > 0)
        report[pkg.name] = messages.map((m) => `${m.type} ${m.code} ${m.path.join('.')}`);
    }
    expect(report).toEqual({});
  });

  it('pass "are the types wrong": types resolve for Node ESM and bundlers, and for CommonJS when shipped', async () => {
    const report: Record<string, string[]> = {};
    for (const pkg of packed) {
      const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as {
        exports?: unknown;
      };
      const ignored = shipsCommonJs(manifest.exports) ? ['node10'] : ['node10', 'node16-cjs'];
      const analysis = await checkPackage(
        createPackageFromTarballData(new Uint8Array(readFileSync(pkg.filename))),
      );
      if (!analysis.types) {
        report[pkg.name] = ['no types at all'];
        continue;
      }
      const problems = analysis.problems.filter(
        (problem) => !('resolutionKind' in problem) || !ignored.includes(problem.resolutionKind),
      );
      if (problems.length > 0) report[pkg.name] = problems.map((problem) => JSON.stringify(problem));
    }
    expect(report).toEqual({});
  });

  it('carry only what a consumer needs', () => {
    const report: Record<string, string[]> = {};
    for (const pkg of packed) {
      const extra = pkg.files.filter((file) => !CONSUMER_FILE.test(file) || NEVER.test(file));
      if (extra.length > 0) report[pkg.name] = extra;
    }
    expect(report).toEqual({});
  });
});

/** Whether an `exports` map offers a `require` condition anywhere. */
function shipsCommonJs(exports: unknown): boolean {
  if (exports === null || typeof exports !== 'object') return false;
  return Object.entries(exports).some(([key, value]) => key === 'require' || shipsCommonJs(value));
}
