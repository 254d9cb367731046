import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARSE_CACHE_FILE, ParseCache } from '../../generators/execute/fast/load/parse-cache.js';
import { readPlainYaml } from '../../generators/execute/fast/load/yaml-fast.js';
import { toolFingerprint } from '../../generators/execute/fingerprint.js';
import { projectCacheDir } from '../../generators/execute/project-cache.js';
import { REPO } from '../helpers.js';
import { makeRepo } from '../sources/git-repo.js';
import { runCliInProcess } from './in-process.js';

// `eventry check` reads the catalogue and its base through the parse cache `eventry build` leaves, and
// never writes it (a CI run starts without one: storing would only cost it). Whatever state the cache
// is in, the gate says what it says without one.

const BEFORE = join(REPO, 'test', 'fixtures', 'diff', 'field-removed', 'before');

/** A released fixture catalogue with field `note` then removed in the working tree: a breaking change. */
function breakingChange() {
  const repo = makeRepo();
  repo.copy(BEFORE, 'catalogue');
  repo.commit('release');
  const orders = join(repo.dir, 'catalogue/orders.yaml');
  const released = readFileSync(orders, 'utf8');
  const edited = released.replace('      note: {type: string}\n', '');
  writeFileSync(orders, edited);
  const cacheFile = join(projectCacheDir(join(repo.dir, 'catalogue')), PARSE_CACHE_FILE);
  const check = () => runCliInProcess(['check', '--base', 'HEAD'], { cwd: repo.dir });
  return { released, edited, cacheFile, check };
}

describe('eventry check with the parse cache', () => {
  it('without a cache: reports the break, located, and writes no cache', async () => {
    const { cacheFile, check } = breakingChange();
    const result = await check();
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^catalogue\/orders\.yaml:\d+:\d+: error field-removed: /m);
    expect(existsSync(cacheFile)).toBe(false);
  });

  it('reads the parses a build stored, and leaves the file as it was', async () => {
    const { released, edited, cacheFile, check } = breakingChange();
    // A cache that holds, for the edited text, the parse of the released one: only a check that reads
    // the cache sees no change.
    const cache = new ParseCache(join(cacheFile, '..'), toolFingerprint());
    cache.read(edited, () => readPlainYaml(released));
    cache.save();
    const stored = readFileSync(cacheFile);
    const result = await check();
    expect(result.stdout).toMatch(/0 breaking change\(s\) to existing event versions blocked/);
    expect(result.status).toBe(0);
    expect(readFileSync(cacheFile).equals(stored)).toBe(true);
  });

  it('a damaged cache file: the same verdict and lines as without one, and the file is left alone', async () => {
    const { cacheFile, check } = breakingChange();
    const without = await check();
    mkdirSync(join(cacheFile, '..'), { recursive: true });
    writeFileSync(cacheFile, 'not a cache');
    expect(await check()).toEqual(without);
    expect(readFileSync(cacheFile, 'utf8')).toBe('not a cache');
  });
});
