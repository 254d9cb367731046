import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { ERROR_CODE_REGISTRY } from '../../generators/shared/error-codes.js';
import { declarationText } from '../../generators/usage/declaration.js';
import { scanProjectFiles } from '../../generators/usage/scan.js';
import { runCliInProcess } from '../cli/in-process.js';
import { tempDir } from '../helpers.js';
import { consumerFile } from './fuzz-inputs.js';
import { declarationProblems, makeProject, TSCONFIG, type UsageWork, usageWork } from './project.js';

// Fuzz of usage scan inputs. Counted over every case: stack traces (a throw out of the scan, or `at …`
// on stderr), exits 70 ("this is a bug in eventry"), and declarations the loader rejects. All zero.
const FILES = 220;
const USAGE_CODES = new Set(Object.keys(ERROR_CODE_REGISTRY.usage.codes));

let work: UsageWork;
let catalogue: Catalogue;
beforeAll(async () => {
  work = await usageWork();
  const loaded = loadCatalogue(work.catalogue);
  if (!loaded.ok) throw new Error('the fixture catalogue does not load');
  catalogue = loaded.catalogue;
}, 60_000);

describe('usage scan fuzz', () => {
  it(`${FILES} generated code files: no throw, every finding coded, every declaration loads`, () => {
    const files = fc.sample(consumerFile, { numRuns: FILES, seed: 4343 });
    const sources = Object.fromEntries(files.map((code, index) => [`fuzz${index}.ts`, code]));
    const project = makeProject(join(work.work, 'fuzz'), work.packages, sources);
    const counts = { thrown: 0, uncoded: 0, rejected: 0, refused: 0, written: 0 };
    const rejected: string[] = [];
    let results: ReturnType<typeof scanProjectFiles> | undefined;
    try {
      results = scanProjectFiles(project, catalogue);
    } catch (error) {
      counts.thrown++;
      rejected.push(String((error as Error).stack));
    }
    for (const [file, usage] of results ?? []) {
      if (usage.findings.some((finding) => !USAGE_CODES.has(finding.code))) counts.uncoded++;
      if (usage.findings.some((finding) => finding.severity === 'error')) {
        counts.refused++;
        continue;
      }
      counts.written++;
      const problems = declarationProblems(work.catalogue, declarationText('ledger', usage, 'x.json'));
      if (problems.length > 0) {
        counts.rejected++;
        rejected.push(`${file}: ${problems.join('; ')}\n${readFileSync(file, 'utf8')}`);
      }
    }
    expect(rejected).toEqual([]);
    expect(counts).toMatchObject({ thrown: 0, uncoded: 0, rejected: 0 });
    expect(counts.refused + counts.written).toBe(FILES);
    // Most files must reach a declaration, or the loader check tests little.
    expect(counts.written, JSON.stringify(counts)).toBeGreaterThan(FILES / 2);
    console.log(`usage scan fuzz: ${JSON.stringify(counts)}`);
  }, 300_000);
});

/** Broken project set-ups, each run through the CLI. */
const BAD_CONFIGS: [string, (dir: string) => void][] = [
  ['not JSON', (dir) => writeFileSync(join(dir, 'tsconfig.json'), '{ "compilerOptions": ')],
  ['includes nothing', (dir) => writeFileSync(join(dir, 'tsconfig.json'), '{"include": ["none"]}')],
  [
    'files that do not exist',
    (dir) => writeFileSync(join(dir, 'tsconfig.json'), '{"files": ["src/missing.ts"]}'),
  ],
  [
    'extends a missing config',
    (dir) => writeFileSync(join(dir, 'tsconfig.json'), '{"extends": "./nope.json"}'),
  ],
  [
    'options of the wrong type',
    (dir) =>
      writeFileSync(
        join(dir, 'tsconfig.json'),
        '{"compilerOptions": {"strict": "yes", "target": 7, "lib": "dom"}, "include": ["src"]}',
      ),
  ],
  [
    'an unknown module setting',
    (dir) =>
      writeFileSync(
        join(dir, 'tsconfig.json'),
        '{"compilerOptions": {"module": "nope"}, "include": ["src"]}',
      ),
  ],
  [
    'a folder named tsconfig.json',
    (dir) => {
      rmSync(join(dir, 'tsconfig.json'));
      mkdirSync(join(dir, 'tsconfig.json'));
    },
  ],
  ['an empty file', (dir) => writeFileSync(join(dir, 'tsconfig.json'), '')],
  ['an array', (dir) => writeFileSync(join(dir, 'tsconfig.json'), '[]')],
  [
    'include of a parent',
    (dir) => writeFileSync(join(dir, 'tsconfig.json'), '{"include": ["../../nowhere/**"]}'),
  ],
  ['not installed', () => {}],
  [
    'deep nesting',
    (dir) =>
      writeFileSync(
        join(dir, 'src', 'deep.ts'),
        `export const x = ${'['.repeat(30_000)}${']'.repeat(30_000)};\n`,
      ),
  ],
];

describe('usage scan fuzz: bad project set-ups', () => {
  it.each(BAD_CONFIGS)(
    'a project with a bad set-up (%s): coded, never exit 70, never a stack trace',
    async (name, spoil) => {
      const dir = tempDir('eventry-usage-fuzz-');
      const project = makeProject(
        dir,
        work.packages,
        { 'a.ts': files0() },
        { installed: name !== 'not installed', tsconfig: TSCONFIG },
      );
      spoil(project);
      const run = await runCliInProcess([
        'usage',
        'scan',
        project,
        '--team',
        'ledger',
        '--catalogue',
        work.catalogue,
        '--out',
        join(dir, 'out.yaml'),
      ]);
      expect(run.status, run.stderr).not.toBe(70);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stderr).not.toContain('this is a bug');
      if (run.status === 0)
        expect(declarationProblems(work.catalogue, readFileSync(join(dir, 'out.yaml'), 'utf8'))).toEqual([]);
      else expect(`${run.stdout}${run.stderr}`).toMatch(/error usage-|tsconfig|eventry usage scan: /);
    },
  );
});

function files0(): string {
  return fc.sample(consumerFile, { numRuns: 1, seed: 7 })[0]!;
}
