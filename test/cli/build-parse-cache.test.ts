import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODEL_SNAPSHOT_FILE } from '../../generators/execute/fast/load/model-snapshot.js';
import { PARSE_CACHE_FILE } from '../../generators/execute/fast/load/parse-cache.js';
import { fixturePath, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';
import { comparable, readTree } from './output-tree.js';

// `eventry build` keeps its parses in the project's .eventry/cache/ between builds: whatever state that
// file is in, a build writes what a build without it writes, and says what a build without it says.

/** A project folder (no package.json above it: the cache sits beside the catalogue) with the small fixture. */
function project() {
  const work = tempDir('eventry-parse-cache-cli-');
  const catalogue = join(work, 'catalogue');
  cpSync(fixturePath('small'), catalogue, { recursive: true });
  const build = (out: string, ...flags: string[]) =>
    runCliInProcess(['build', '--catalogue', catalogue, '--out', join(work, out), ...flags]);
  return {
    work,
    catalogue,
    build,
    cacheFile: join(work, '.eventry', 'cache', PARSE_CACHE_FILE),
    snapshotFile: join(work, '.eventry', 'cache', MODEL_SNAPSHOT_FILE),
  };
}

const output = (dir: string) =>
  comparable(new Map([...readTree(dir)].filter(([path]) => !path.startsWith('.eventry'))));

describe('eventry build with the parse cache', () => {
  it('writes the cache file, and --no-cache neither reads nor writes it', async () => {
    const withCache = project();
    expect((await withCache.build('packages')).status).toBe(0);
    expect(existsSync(withCache.cacheFile)).toBe(true);
    const without = project();
    expect((await without.build('packages', '--no-cache')).status).toBe(0);
    expect(existsSync(without.cacheFile)).toBe(false);
  });

  it('a damaged cache file: the build succeeds, quietly, with the output of a build without it', async () => {
    const { work, build, cacheFile, snapshotFile } = project();
    expect((await build('first')).status).toBe(0);
    const good = readFileSync(cacheFile);
    writeFileSync(cacheFile, good.subarray(0, good.length >> 1));
    // Without the last load's model, which spares an unchanged catalogue its parses, they are read.
    rmSync(snapshotFile);
    const damaged = await build('second', '--force');
    expect(damaged.stderr).toBe('');
    expect(damaged.status).toBe(0);
    const reference = await build('reference', '--no-cache');
    expect(reference.status).toBe(0);
    expect(output(join(work, 'second'))).toEqual(output(join(work, 'reference')));
    // Rewritten whole, as the first build wrote it.
    expect(readFileSync(cacheFile).equals(good)).toBe(true);
  });

  it('a broken file after a cached build: the same located problems as without the cache', async () => {
    const { catalogue, build } = project();
    expect((await build('first')).status).toBe(0);
    const billing = join(catalogue, 'groups/billing.yaml');
    writeFileSync(billing, readFileSync(billing, 'utf8').replace('type: string', 'type: strnig'));
    const cached = await build('second');
    const reference = await build('third', '--no-cache');
    expect(cached.status).toBe(1);
    expect(cached.stderr).toMatch(/groups\/billing\.yaml:\d+:\d+/);
    expect(cached.stderr).toBe(reference.stderr);
  });
});

describe('eventry build with the last load’s model (the incremental load)', () => {
  it('an edit, then a damaged snapshot: each build writes what a build without the cache writes', async () => {
    const { work, catalogue, build, snapshotFile } = project();
    expect((await build('out')).status).toBe(0);
    expect(existsSync(snapshotFile)).toBe(true);
    const group = join(catalogue, 'groups', 'billing.yaml');
    writeFileSync(group, readFileSync(group, 'utf8').replace(/^ {2}title: (.*)$/m, '  title: $1, edited'));
    const edited = await build('out');
    expect(edited.stderr).toBe('');
    expect(edited.status).toBe(0);
    expect((await build('reference', '--no-cache')).status).toBe(0);
    expect(output(join(work, 'out'))).toEqual(output(join(work, 'reference')));

    const good = readFileSync(snapshotFile);
    writeFileSync(snapshotFile, good.subarray(0, good.length - 7));
    writeFileSync(group, readFileSync(group, 'utf8').replace(', edited', ', edited again'));
    const damaged = await build('out');
    expect(damaged.stderr).toBe('');
    expect(damaged.status).toBe(0);
    expect((await build('reference', '--no-cache')).status).toBe(0);
    expect(output(join(work, 'out'))).toEqual(output(join(work, 'reference')));
  });
});
