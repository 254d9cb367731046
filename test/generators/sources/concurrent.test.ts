import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Concurrent from '../../../generators/sources/concurrent.js';
import { estimateSourceSize, type SourceResult } from '../../../generators/sources/index.js';
import { writeSyntheticCatalogue } from '../../../scripts/bench/synthetic-catalogue.js';
import { runCliInProcess } from '../../cli/in-process.js';
import { fixturePath, REPO, runCli, tempDir } from '../../helpers.js';
import { makeRepo } from './git-repo.js';

// The worker thread runs compiled code (Node cannot start a `.ts` worker), so the pair is imported from
// dist/ (`npm run build:tool` first, as for the CLI tests): the worker path for real, beside the
// one-after-the-other path of the same build.
const { canResolveConcurrently, resolveSourcePair, shouldResolveConcurrently, WORKER_MIN_BYTES } =
  (await import(
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
  });
});

describe('when the worker is used', () => {
  const options = { cwd: REPO, catalogue: 'catalogue' };
  let big: string;
  beforeAll(() => {
    big = writeSyntheticCatalogue(join(REPO, 'catalogue'), join(tempDir(), 'catalogue'), 8).dir;
  });
  const yamlBytes = (dir: string) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.yaml'))
      .reduce((sum, path) => sum + statSync(join(dir, path)).size, 0);

  it('the size of a folder and of a git ref is the YAML they hold', () => {
    const repo = makeRepo();
    repo.copy(fixturePath('small'), 'catalogue');
    repo.commit('first');
    const bytes = yamlBytes(fixturePath('small'));
    expect(bytes).toBeGreaterThan(0);
    expect(estimateSourceSize(fixturePath('small'), options)).toBe(bytes);
    expect(estimateSourceSize('HEAD', { cwd: repo.dir, catalogue: 'catalogue' })).toBe(bytes);
    expect(estimateSourceSize('no-such-ref-or-folder', options)).toBeUndefined();
  });

  it('a folder that is not a catalogue (a project root, `/`) has no size: it is not walked', () => {
    // `test/` holds catalogues deep inside but no config of its own: `resolve` refuses it.
    expect(estimateSourceSize('test', options)).toBeUndefined();
    expect(shouldResolveConcurrently('test', big, options)).toBe(false);
  });

  it('only when both sides are large: two seed-sized catalogues load on one thread', () => {
    expect(yamlBytes(big)).toBeGreaterThan(WORKER_MIN_BYTES);
    expect(yamlBytes(join(REPO, 'catalogue'))).toBeLessThan(WORKER_MIN_BYTES);
    expect(shouldResolveConcurrently(big, big, options)).toBe(true);
    expect(shouldResolveConcurrently(big, 'catalogue', options)).toBe(false);
    expect(shouldResolveConcurrently('catalogue', big, options)).toBe(false);
    expect(shouldResolveConcurrently(BEFORE, AFTER, options)).toBe(false);
  });

  it('eventry diff (compiled) of two large folders (sharing one parse memo) prints the in-process findings', async () => {
    const other = writeSyntheticCatalogue(join(REPO, 'catalogue'), join(tempDir(), 'catalogue'), 8).dir;
    const group = join(other, 'groups', 'billing-c1.yaml');
    writeFileSync(
      group,
      readFileSync(group, 'utf8').replace(/\n {6}\w+: \{ type: string, required: true \}/, ''),
    );
    const compiled = runCli(['diff', big, other, '--format', 'json']);
    const inProcess = await runCliInProcess(['diff', big, other, '--format', 'json']);
    expect(compiled.stderr).toBe('');
    expect(JSON.parse(compiled.stdout).changes).toContainEqual(
      expect.objectContaining({ severity: 'breaking' }),
    );
    expect(compiled).toEqual(inProcess);
  });

  it('eventry diff (compiled) with a YAML error in a large OLD exits 2 with the located problem, as in process', async () => {
    const broken = join(tempDir(), 'catalogue');
    cpSync(big, broken, { recursive: true });
    writeFileSync(
      join(broken, 'groups', 'billing-c1.yaml'),
      'group: {slug: billing-c1, title: B}\nevents:\n  a: [\n',
    );
    expect(shouldResolveConcurrently(broken, big, options)).toBe(true);
    const compiled = runCli(['diff', broken, big]);
    const inProcess = await runCliInProcess(['diff', broken, big]);
    expect(compiled.status).toBe(2);
    expect(compiled.stderr).toMatch(/groups\/billing-c1\.yaml:\d+:\d+/);
    expect(compiled.stderr).toContain('yaml-syntax');
    expect(compiled).toEqual(inProcess);
  });
});
