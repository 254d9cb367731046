import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARSE_CACHE_FILE, ParseCache } from '../../generators/execute/fast/load/parse-cache.js';
import { readPlainYaml } from '../../generators/execute/fast/load/yaml-fast.js';
import { toolFingerprint } from '../../generators/execute/fingerprint.js';
import { projectCacheDir } from '../../generators/execute/project-cache.js';
import { REPO, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

// `eventry diff OLD NEW` of two catalogue folders reads the parse caches that `eventry build` left in
// either side's project (and the working directory's), and never writes one: a reviewer who built the
// working tree pays for parsing only the files that differ. Whatever a cache holds is looked up by the
// digest of a file's text, so the report is the one a diff without a cache prints.

const BEFORE = join(REPO, 'test', 'fixtures', 'diff', 'field-removed', 'before');

/** Two projects: `old/catalogue` as released, `new/catalogue` with field `note` removed (a break). */
function twoProjects() {
  const root = tempDir('eventry-diff-cache-');
  const old = join(root, 'old', 'catalogue');
  const now = join(root, 'new', 'catalogue');
  cpSync(BEFORE, old, { recursive: true });
  cpSync(BEFORE, now, { recursive: true });
  const released = readFileSync(join(now, 'orders.yaml'), 'utf8');
  const edited = released.replace('      note: {type: string}\n', '');
  expect(edited).not.toBe(released);
  writeFileSync(join(now, 'orders.yaml'), edited);
  const diff = () => runCliInProcess(['diff', old, now], { cwd: root });
  /** Stores, in `catalogue`'s project cache, the released file's parse as the edited text's. */
  const forgeCache = (catalogue: string) => {
    const cache = new ParseCache(projectCacheDir(catalogue), toolFingerprint());
    cache.read(edited, () => readPlainYaml(released));
    cache.save();
    return join(projectCacheDir(catalogue), PARSE_CACHE_FILE);
  };
  return { old, now, diff, forgeCache };
}

describe('eventry diff with the parse cache', () => {
  it('without a cache: reports the break and writes no cache on either side', async () => {
    const { old, now, diff } = twoProjects();
    const result = await diff();
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/field-removed/);
    for (const catalogue of [old, now]) {
      expect(existsSync(join(projectCacheDir(catalogue), PARSE_CACHE_FILE))).toBe(false);
    }
  });

  it.each(['new', 'old'] as const)(
    "reads the parses stored in the %s side's project, and leaves the file as it was",
    async (side) => {
      const { old, now, diff, forgeCache } = twoProjects();
      // Only a diff that reads this cache sees the edited file as the released one: no change at all.
      const cacheFile = forgeCache(side === 'new' ? now : old);
      const stored = readFileSync(cacheFile);
      const result = await diff();
      expect(result.stdout).not.toMatch(/field-removed/);
      expect(result.status).toBe(0);
      expect(readFileSync(cacheFile).equals(stored)).toBe(true);
    },
  );

  it('a damaged cache file: the same report as without one, and the file is left alone', async () => {
    const { now, diff } = twoProjects();
    const without = await diff();
    const cacheFile = join(projectCacheDir(now), PARSE_CACHE_FILE);
    mkdirSync(join(cacheFile, '..'), { recursive: true });
    writeFileSync(cacheFile, 'not a cache');
    expect(await diff()).toEqual(without);
    expect(readFileSync(cacheFile, 'utf8')).toBe('not a cache');
  });
});
