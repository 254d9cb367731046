import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDiskCache } from '../../../generators/execute/fast/emit-cache.js';
import { tempDir } from '../../helpers.js';

describe('the disk cache keeps one value per unit, one build deep', () => {
  it("a unit's new value replaces its last, and not that of a unit named like it plus --", () => {
    const dir = tempDir();
    createDiskCache(dir, 'tool').keep!('account', 1);
    createDiskCache(dir, 'tool').keep!('account--v2', 'other');
    createDiskCache(dir, 'tool').keep!('account', 2);
    expect(createDiskCache(dir, 'tool').recall!('account')).toBe(2);
    expect(createDiskCache(dir, 'tool').recall!('account--v2')).toBe('other');
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it("a killed build's temporary files are swept at the next keep, a running build's are left alone", () => {
    const dir = tempDir();
    createDiskCache(dir, 'tool').keep!('account', 1);
    // A build killed between writing and renaming, an hour ago: a kept value's and the parse cache's.
    const stale = ['account--0123.v8.a1b2c3d4.tmp', 'parse.v8.d4c3b2a1.tmp'];
    const old = new Date(Date.now() - 60 * 60 * 1000);
    for (const name of stale) {
      writeFileSync(join(dir, name), 'half');
      utimesSync(join(dir, name), old, old);
    }
    // One a build running beside this one is writing now.
    const fresh = 'billing--4567.v8.e5f6a7b8.tmp';
    writeFileSync(join(dir, fresh), 'in progress');
    createDiskCache(dir, 'tool').keep!('account', 2);
    expect(readdirSync(dir).sort()).toEqual([expect.stringMatching(/^account--[0-9a-f]{32}\.v8$/), fresh]);
  });

  it('the group package entries an earlier toolkit memoised here are removed at the next keep, nothing else', () => {
    const dir = tempDir();
    const entries = [
      `group-package-account--${'0'.repeat(32)}.entry`,
      `group-package-billing--${'1'.repeat(32)}.json`,
    ];
    for (const name of entries) writeFileSync(join(dir, name), '{"tool":"tool"}');
    writeFileSync(join(dir, 'notes.json'), '{}');
    createDiskCache(dir, 'tool').keep!('account', 1);
    for (const name of entries) expect(existsSync(join(dir, name)), name).toBe(false);
    expect(existsSync(join(dir, 'notes.json'))).toBe(true);
  });
});
