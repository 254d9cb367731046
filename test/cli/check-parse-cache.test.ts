import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARSE_CACHE_FILE } from '../../generators/load/parse-cache.js';
import { makeRepo } from '../generators/sources/git-repo.js';
import { REPO } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

// `eventry check` reads the catalogue and its base through the parse cache `eventry build` keeps: the
// gate's verdict and every located line must be what they are without it, whatever state it is in.

const BEFORE = join(REPO, 'test', 'fixtures', 'diff', 'field-removed', 'before');

describe('eventry check with the parse cache', () => {
  it('fills the cache, and says the same, located, from a warm or a damaged cache', async () => {
    const repo = makeRepo();
    repo.copy(BEFORE, 'catalogue');
    repo.commit('release');
    const orders = join(repo.dir, 'catalogue/orders.yaml');
    writeFileSync(orders, readFileSync(orders, 'utf8').replace('      note: {type: string}\n', ''));
    const check = () => runCliInProcess(['check', '--base', 'HEAD'], { cwd: repo.dir });
    const cold = await check();
    expect(cold.status).toBe(1);
    expect(cold.stdout).toMatch(/^catalogue\/orders\.yaml:\d+:\d+: error field-removed: /m);
    const cacheFile = join(repo.dir, '.eventry', 'cache', PARSE_CACHE_FILE);
    expect(existsSync(cacheFile)).toBe(true);
    expect(await check()).toEqual(cold);
    writeFileSync(cacheFile, 'not a cache');
    expect(await check()).toEqual(cold);
  });
});
