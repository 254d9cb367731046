import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../generators/execute/lock.js';
import { printablePath } from '../../generators/load/problem.js';
import { compiledToolkitPath, REPO, tempDir } from '../helpers.js';
import { prepareBadCase } from '../load/bad-fixture.js';

interface WantedProblem {
  code: string;
  file: string;
  line: number;
  column: number;
}

const CLI = compiledToolkitPath('scripts/eventry.js');
const BAD = 'test/fixtures/bad';
const cases = readdirSync(join(REPO, BAD), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const wanted = (name: string): WantedProblem[] =>
  JSON.parse(readFileSync(join(REPO, BAD, name, 'expected.json'), 'utf8'));

/** Runs the compiled CLI from the repo root without blocking, so the cases can run side by side. */
function eventry(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: REPO, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => done({ status: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/**
 * Every file below `dir` (dot-files included) with its bytes and mtime; but the lock of a build running
 * beside (the cases run at once on one output, each build waits for the lock in turn), which is no output.
 */
function snapshot(dir: string): Record<string, { bytes: string; mtimeMs: number }> {
  const files: Record<string, { bytes: string; mtimeMs: number }> = {};
  for (const path of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (path === LOCK_FILE) continue;
    const full = join(dir, path);
    const stat = statSync(full);
    if (stat.isFile()) files[path] = { bytes: readFileSync(full).toString('base64'), mtimeMs: stat.mtimeMs };
  }
  return files;
}

describe('eventry build with a bad catalogue', () => {
  const out = tempDir('eventry-build-errors-');
  let good: ReturnType<typeof snapshot>;

  beforeAll(async () => {
    const tool = spawnSync('npm', ['run', 'build:tool'], { cwd: REPO, encoding: 'utf8' });
    if (tool.status !== 0) throw new Error(`npm run build:tool failed:\n${tool.stdout}\n${tool.stderr}`);
    const built = await eventry(['build', '--catalogue', 'test/fixtures/small/catalogue', '--out', out]);
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    good = snapshot(out);
    expect(Object.keys(good).length).toBeGreaterThan(10);
  }, 120_000);

  it('exits 1 and prints every problem as catalogue-path/file:line:column: error code: message, with its hint', async () => {
    const catalogue = `${BAD}/many-problems-one-run/catalogue`;
    const { status, stdout, stderr } = await eventry(['build', '--catalogue', `${catalogue}/`, '--out', out]);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    const want = wanted('many-problems-one-run');
    expect(lines).toHaveLength(want.length * 2 + 1);
    want.forEach((problem, i) => {
      expect(lines[2 * i]).toMatch(
        new RegExp(
          `^${escapeRegExp(`${catalogue}/${problem.file}:${problem.line}:${problem.column}: error ${problem.code}: `)}\\S`,
        ),
      );
      expect(lines[2 * i + 1]).toMatch(/^ {4}hint: \S/);
    });
    expect(lines).toContain(
      `${catalogue}/groups/account.yaml:8:22: error unknown-shape: Shape \`Ledgr\` is not defined.`,
    );
    expect(lines.at(-1)).toBe(
      `eventry: build failed: ${want.length} problem(s) in the catalogue; nothing was written.`,
    );
    expect(snapshot(out)).toEqual(good);
  });

  it.concurrent.each(cases)(
    '%s: exits 1, reports each expected location, leaves the last good output as it was',
    async (name) => {
      // Cases with a setup.json run on a prepared copy; a denied read cannot be staged for root on disk
      // (root reads anything), so that one is proven through the loader's injected reader only.
      const prepared = prepareBadCase(name);
      if (prepared.denied) return;
      const catalogue = prepared.root.startsWith(REPO) ? `${BAD}/${name}/catalogue` : prepared.root;
      const { status, stderr } = await eventry(['build', '--catalogue', catalogue, '--out', out]);
      expect(status).toBe(1);
      const reported = stderr.split('\n').filter((line) => line.startsWith(`${catalogue}/`));
      expect(reported.map((line) => line.slice(0, line.indexOf(': ', line.indexOf(': error ') + 2)))).toEqual(
        wanted(name).map(
          (p) => `${catalogue}/${printablePath(p.file)}:${p.line}:${p.column}: error ${p.code}`,
        ),
      );
      expect(snapshot(out)).toEqual(good);
    },
    // Each case starts a Node process; on a busy machine a handful side by side outlast the 5 s default.
    60_000,
  );
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
