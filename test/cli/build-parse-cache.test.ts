import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARSE_CACHE_FILE } from '../../generators/load/parse-cache.js';
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
  return { work, catalogue, build, cacheFile: join(work, '.eventry', 'cache', PARSE_CACHE_FILE) };
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
    const { work, build, cacheFile } = project();
    expect((await build('first')).status).toBe(0);
    const good = readFileSync(cacheFile);
    writeFileSync(cacheFile, good.subarray(0, good.length >> 1));
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
