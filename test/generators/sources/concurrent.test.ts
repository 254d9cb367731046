import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Concurrent from '../../../generators/sources/concurrent.js';
import type { SourceResult } from '../../../generators/sources/index.js';
import { runCliInProcess } from '../../cli/in-process.js';
import { fixturePath, REPO, runCli, tempDir } from '../../helpers.js';
import { makeRepo } from './git-repo.js';

// The worker thread runs compiled code (Node cannot start a `.ts` worker), so the pair is imported from
// dist/ (`npm run build:tool` first, as for the CLI tests): the worker path for real, beside the
// one-after-the-other path of the same build.
const { canResolveConcurrently, resolveSourcePair } = (await import(
  pathToFileURL(join(REPO, 'dist/generators/sources/concurrent.js')).href
)) as typeof Concurrent;

const BEFORE = 'test/fixtures/diff-report/before';
const AFTER = 'test/fixtures/diff-report/after';

/** Every path below `value` whose object has no prototype (structured clone gives one to each). */
function nullPrototypePaths(value: unknown, path = '$', into: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return into;
  if (Object.getPrototypeOf(value) === null) into.push(path);
  for (const [key, child] of Object.entries(value)) nullPrototypePaths(child, `${path}.${key}`, into);
  return into;
}

function expectSameResults(worker: SourceResult[], here: SourceResult[]): void {
  expect(worker).toEqual(here);
  expect(nullPrototypePaths(worker)).toEqual(nullPrototypePaths(here));
}

describe('resolveSourcePair: OLD in a worker thread', () => {
  const options = { cwd: REPO, catalogue: 'catalogue' };

  it('runs concurrently from the compiled build on this machine', () => {
    // The other cases would prove nothing if the worker path were not taken.
    expect(canResolveConcurrently()).toBe(true);
  });

  it('a folder from the worker is the model loaded in process, null-prototype maps included', async () => {
    const worker = await resolveSourcePair(BEFORE, AFTER, options, true);
    const here = await resolveSourcePair(BEFORE, AFTER, options, false);
    expect(worker[0].ok && Object.keys(worker[0].source.catalogue.events).length).toBeGreaterThan(0);
    expect(nullPrototypePaths(here)).toContain('$.0.source.catalogue.events');
    expectSameResults(worker, here);
  });

  describe('a git ref', () => {
    let dir: string;
    beforeAll(() => {
      const repo = makeRepo();
      repo.copy(fixturePath('small'), 'catalogue');
      repo.write(
        'packages/account/package.json',
        '{"name": "@fixture-events/account", "version": "1.3.0"}\n',
      );
      repo.commit('first');
      dir = repo.dir;
    });

    it('from the worker is what it is in process, package versions included', async () => {
      const gitOptions = { cwd: dir, catalogue: 'catalogue' };
      const worker = await resolveSourcePair('HEAD', 'catalogue', gitOptions, true);
      const here = await resolveSourcePair('HEAD', 'catalogue', gitOptions, false);
      expect(worker[0].ok && worker[0].source.packageVersions).toEqual({ account: '1.3.0' });
      expectSameResults(worker, here);
    });
  });

  describe('OLD with a YAML error (the side the worker loads)', () => {
    let broken: string;
    beforeAll(() => {
      broken = join(tempDir(), 'catalogue');
      cpSync(join(REPO, BEFORE), broken, { recursive: true });
      writeFileSync(join(broken, 'orders.yaml'), 'group: {slug: orders, title: Orders}\nevents:\n  a: [\n');
    });

    it('is a located, coded problem, as in process', async () => {
      const worker = await resolveSourcePair(broken, AFTER, options, true);
      const here = await resolveSourcePair(broken, AFTER, options, false);
      expect(worker[0]).toMatchObject({
        ok: false,
        reason: 'problems',
        problems: [{ code: 'yaml-syntax', file: 'orders.yaml', line: expect.any(Number) }],
      });
      expectSameResults(worker, here);
    });

    it('eventry diff (compiled, worker) exits 2 with the located problem, as the in-process run does', async () => {
      const compiled = runCli(['diff', broken, AFTER]);
      const inProcess = await runCliInProcess(['diff', broken, AFTER]);
      expect(compiled.status).toBe(2);
      expect(compiled.stderr).toMatch(/orders\.yaml:\d+:\d+/);
      expect(compiled.stderr).toContain('yaml-syntax');
      expect(compiled).toEqual(inProcess);
    });
  });

  it('eventry diff (compiled, worker) prints the findings the in-process run prints', async () => {
    const compiled = runCli(['diff', BEFORE, AFTER, '--format', 'json']);
    const inProcess = await runCliInProcess(['diff', BEFORE, AFTER, '--format', 'json']);
    expect(compiled.status).toBe(1);
    expect(JSON.parse(compiled.stdout).changes.length).toBeGreaterThan(0);
    expect(compiled).toEqual(inProcess);
  });
});
