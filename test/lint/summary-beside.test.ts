import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastExecutor } from '../../generators/execute/fast/index.js';
import { runExecutor } from '../../generators/execute/run.js';
import { lintSummaryLine } from '../../generators/lint/gate.js';
import {
  type LintSummaryData,
  type LintSummaryReply,
  sourcesDigest,
  startLintSummary,
} from '../../generators/lint/summary-beside.js';
import {
  type CatalogueSourceFile,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { startWorker } from '../../generators/shared/worker.js';
import { REPO, tempDir } from '../helpers.js';
import { mutate, mutationArbitrary } from '../load/mutate-catalogue.js';

// `eventry build` lints an edit on a thread beside the build (`startLintSummary`). The thread loads the
// catalogue itself; the line made on this thread from a plain load is the oracle. Whatever goes wrong
// with the thread, the build prints the line this thread would have made.

const THREAD = 'cli/lint-summary-worker';

/** The thread's answer for the catalogue in `dir`. */
function threadReply(dir: string, cache = true): Promise<LintSummaryReply> {
  const worker = startWorker(THREAD, { workerData: { dir, cache } satisfies LintSummaryData });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the thread stopped (${code}) without answering`)));
  });
}

/** The plain load of `files`, or undefined when it has problems. */
function plainLoad(files: readonly CatalogueSourceFile[]): Catalogue | undefined {
  const loaded = loadCatalogueFromSources([...files]);
  return loaded.ok ? loaded.catalogue : undefined;
}

/** The thread answers for `dir` what this thread says of a plain load of it; false if it does not load. */
async function expectSameLine(dir: string): Promise<boolean> {
  const files = readCatalogueSources(dir);
  const catalogue = plainLoad(files);
  const reply = await threadReply(dir);
  if (!catalogue) {
    expect(reply).toHaveProperty('failed');
    return false;
  }
  expect(reply).toEqual({ line: lintSummaryLine(catalogue, dir, files), digest: sourcesDigest(files) });
  return true;
}

/** Every fixture catalogue folder with a settings file, the bad corpus aside (it does not load). */
function fixtureCatalogues(dir = join(REPO, 'test', 'fixtures')): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (!entry.isDirectory() || path === join(REPO, 'test', 'fixtures', 'bad')) continue;
    if (statSync(join(path, 'eventry.config.yaml'), { throwIfNoEntry: false })?.isFile()) found.push(path);
    else found.push(...fixtureCatalogues(path));
  }
  return found.sort();
}

/** A copy of the repository's catalogue in a project of its own, built once (its parse cache written). */
async function builtCopy(): Promise<string> {
  const project = tempDir('eventry-lint-beside-');
  const dir = join(project, 'catalogue');
  cpSync(join(REPO, 'catalogue'), dir, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{"name": "lint-beside", "private": true}\n');
  const out = join(project, 'packages');
  const built = await runExecutor(fastExecutor({ cache: true, threads: 0 }), {
    catalogueDir: dir,
    outDir: out,
    outGiven: out,
  });
  expect(built.kind).toBe('built');
  return dir;
}

describe("the build's lint summary on a thread", () => {
  it('says what this thread says on every fixture catalogue', async () => {
    const fixtures = fixtureCatalogues();
    expect(
      fixtures.filter((dir) => relative(REPO, dir).startsWith('test/fixtures/lint/')).length,
    ).toBeGreaterThan(30);
    let linted = 0;
    // Two at a time: one thread per fixture.
    for (let at = 0; at < fixtures.length; at += 2) {
      const answers = await Promise.all(fixtures.slice(at, at + 2).map(expectSameLine));
      linted += answers.filter(Boolean).length;
    }
    expect(linted).toBeGreaterThan(fixtures.length / 2);
  }, 180_000);

  it("says what this thread says on the repository's catalogue and after random edits of a copy", async () => {
    const dir = await builtCopy();
    expect(await expectSameLine(dir)).toBe(true);
    const real = readCatalogueSources(dir).filter((file) => file.path !== 'allow-breaking.yaml');
    const edit = fc.nat({ max: real.length - 1 }).chain((index) =>
      fc
        .array(mutationArbitrary(real[index]!.text.split('\n').length), { minLength: 1, maxLength: 2 })
        .map((mutations) => ({
          path: real[index]!.path,
          text: mutations.reduce(mutate, real[index]!).text,
        })),
    );
    let linted = 0;
    await fc.assert(
      fc.asyncProperty(edit, async (file) => {
        const path = join(dir, file.path);
        const before = readFileSync(path, 'utf8');
        writeFileSync(path, file.text);
        try {
          if (await expectSameLine(dir)) linted++;
        } finally {
          writeFileSync(path, before);
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 24), seed: 20_261_127 },
    );
    expect(linted).toBeGreaterThanOrEqual(3);
  }, 180_000);
});

describe('startLintSummary', () => {
  const dir = join(REPO, 'catalogue');
  const files = readCatalogueSources(dir);
  const catalogue = plainLoad(files)!;
  const expected = lintSummaryLine(catalogue, dir, files);
  // A model whose own line differs: a line equal to `expected` then can only be the thread's.
  const other = plainLoad(files.filter((file) => file.path === 'eventry.config.yaml'))!;
  const otherLine = lintSummaryLine(other, dir, files);

  it('gives the thread’s line when the thread linted the sources the build used', async () => {
    expect(otherLine).not.toBe(expected);
    expect(await startLintSummary(dir, { module: THREAD }).line(other, files)).toBe(expected);
  });

  it('makes the line here when the catalogue changed after the thread read it', async () => {
    const edited = files.map((file) =>
      file.path === 'groups/account.yaml'
        ? {
            ...file,
            text: file.text.replace('account_number: {type: string', 'account_number: {type: integer'),
          }
        : file,
    );
    const changed = plainLoad(edited)!;
    const line = lintSummaryLine(changed, dir, edited);
    expect(line).not.toBe(expected);
    expect(await startLintSummary(dir, { module: THREAD }).line(changed, edited)).toBe(line);
  });

  it.each([
    ['cannot start (its module is not built)', 'lint/no-such-thread', dir],
    ['stops without answering', 'lint/lint', dir],
    ['throws (its catalogue folder is gone)', THREAD, join(tempDir('eventry-lint-beside-'), 'gone')],
  ])('makes the line here when the thread %s', async (_why, module, folder) => {
    const line = lintSummaryLine(other, folder, files);
    expect(await startLintSummary(folder, { module }).line(other, files)).toBe(line);
  });

  it('uses nothing of a cancelled thread', async () => {
    const summary = startLintSummary(dir, { module: THREAD });
    summary.cancel();
    expect(await summary.line(other, files)).toBe(otherLine);
  });
});
