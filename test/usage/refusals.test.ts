import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../generators/load/index.js';
import { runCliInProcess } from '../cli/in-process.js';
import { tempDir } from '../helpers.js';
import { makeProject, TSCONFIG, type UsageWork, usageWork } from './project.js';

// `usage scan` writes only what loads: where it cannot know what the code reads, it refuses (located,
// coded, exit 1) and the team's last declaration stays as it was.
let work: UsageWork;
let declaration: string;
let good: string;

const GOOD = `import type { AccountRemovedV2 } from '@fixture-events/account';
export const f = (e: AccountRemovedV2) => e.reason;
`;

const scan = (project: string) =>
  runCliInProcess(['usage', 'scan', project, '--team', 'ledger', '--catalogue', work.catalogue]);

beforeAll(async () => {
  work = await usageWork();
  const project = makeProject(tempDir('eventry-usage-good-'), work.packages, { 'a.ts': GOOD });
  const run = await scan(project);
  expect(run.status, run.stderr).toBe(0);
  declaration = join(work.catalogue, 'consumers', 'ledger.yaml');
  good = readFileSync(declaration, 'utf8');
  expect(good).toContain('reason');
}, 60_000);

/** Runs a scan that must refuse with `code`, located in the project, and leave the declaration as it was. */
async function refuses(project: string, code: string, where: RegExp): Promise<void> {
  const run = await scan(project);
  expect(run.status, run.stdout + run.stderr).toBe(1);
  expect(run.stdout).toMatch(new RegExp(`${where.source}: error ${code}: `, 'm'));
  expect(run.stderr).toContain('nothing was written');
  expect(readFileSync(declaration, 'utf8')).toBe(good);
}

describe('usage scan refuses what it cannot know', () => {
  it('a group package import that does not resolve (the packages are not installed)', async () => {
    const project = makeProject(
      tempDir('eventry-usage-'),
      work.packages,
      { 'a.ts': GOOD },
      { installed: false },
    );
    await refuses(project, 'usage-package-unresolved', /src\/a\.ts:1:\d+/);
  });

  it('a tsconfig that selects no file', async () => {
    const tsconfig = JSON.stringify({ ...JSON.parse(TSCONFIG), include: ['nowhere'] });
    const project = makeProject(tempDir('eventry-usage-'), work.packages, { 'a.ts': GOOD }, { tsconfig });
    await refuses(project, 'usage-no-files', /tsconfig\.json:1:1/);
  });

  it('a project that imports no group package at all', async () => {
    const project = makeProject(tempDir('eventry-usage-'), work.packages, {
      'a.ts': 'export const x = 1;\n',
    });
    await refuses(project, 'usage-package-unresolved', /tsconfig\.json:1:1/);
  });

  it('--out naming a folder: a coded error, not an internal one', async () => {
    const project = makeProject(tempDir('eventry-usage-'), work.packages, { 'a.ts': GOOD });
    const out = tempDir('eventry-usage-out-');
    const run = await runCliInProcess([
      'usage',
      'scan',
      project,
      '--team',
      'ledger',
      '--catalogue',
      work.catalogue,
      '--out',
      out,
    ]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain('error usage-not-generated');
  });

  it('a key no version of the event has', async () => {
    const code = `${GOOD}export const g = (e: AccountRemovedV2) => (e as any).nope;\n`;
    const project = makeProject(tempDir('eventry-usage-'), work.packages, { 'a.ts': code });
    await refuses(project, 'usage-unknown-field', /src\/a\.ts:3:43/);
  });

  it('a computed key: declared as `*` with a located warning, and the declaration loads', async () => {
    const code = `${GOOD}export const g = (e: AccountRemovedV2, k: string) => (e as any)[k];\n`;
    const project = makeProject(tempDir('eventry-usage-'), work.packages, { 'a.ts': code });
    const run = await scan(project);
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/src\/a\.ts:3:54: warning usage-unresolved: /m);
    expect(readFileSync(declaration, 'utf8')).toContain('- "*"');
    const loaded = loadCatalogue(work.catalogue);
    expect(loaded.ok ? [] : loaded.problems).toEqual([]);
    writeFileSync(declaration, good);
  });

  it.each([
    ['nested brackets', (n: number) => `export const x = ${'['.repeat(n)}1${']'.repeat(n)};\n`],
    ['nested arrows', (n: number) => `export const x = ${'() => '.repeat(n)}1;\n`],
    [
      'a long chain of values',
      (n: number) =>
        `${GOOD}export function g(e: AccountRemovedV2) {\n  const v0 = e;\n${Array.from({ length: n }, (_, i) => `  const v${i + 1} = v${i};`).join('\n')}\n  return v${n}.reason;\n}\n`,
    ],
  ])('deep code (%s): a coded refusal or a declaration, never an internal error', async (_name, make) => {
    for (const n of [3000, 20_000]) {
      const project = makeProject(tempDir('eventry-usage-'), work.packages, { 'a.ts': make(n) });
      const run = await scan(project);
      expect([0, 1], run.stdout + run.stderr).toContain(run.status);
      expect(run.stderr).not.toContain('this is a bug');
      if (run.status === 1) expect(run.stdout).toContain('error usage-too-deep');
      const loaded = loadCatalogue(work.catalogue);
      expect(loaded.ok ? [] : loaded.problems).toEqual([]);
      writeFileSync(declaration, good);
    }
  });
});
