import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';
import { makeRepo } from '../sources/git-repo.js';
import { runCliInProcess } from './in-process.js';

const FIXTURE = join(REPO, 'test', 'fixtures', 'diff-report', 'before');

/** Every file under `dir` (its build state aside: git ignores it) with its text, by relative path. */
function texts(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const name = relative(dir, path);
    if (!name.startsWith('.eventry-build-state')) files.set(name, readFileSync(path, 'utf8'));
  }
  return files;
}

describe('a comment-only edit of a catalogue file (regression: it changed x-catalogue-hash in openapi.json and asyncapi.json)', () => {
  it('changes no file the build writes, however the comment and blank lines go', {
    timeout: 120_000,
  }, async () => {
    const repo = makeRepo();
    repo.copy(FIXTURE, 'catalogue');
    const build = (...args: string[]) => runCliInProcess(['build', ...args], { cwd: repo.dir });
    expect((await build()).status).toBe(0);
    const before = texts(join(repo.dir, 'packages'));
    const orders = readFileSync(join(repo.dir, 'catalogue/orders.yaml'), 'utf8');
    repo.write('catalogue/orders.yaml', `# Reviewed by the payments team.\n\n${orders}\n# end\n`);
    expect((await build()).status).toBe(0);
    expect(texts(join(repo.dir, 'packages'))).toEqual(before);
    // A clean rebuild (CI's freshness check) agrees.
    expect((await build('--force', '--no-cache')).status).toBe(0);
    expect(texts(join(repo.dir, 'packages'))).toEqual(before);
  });
});
