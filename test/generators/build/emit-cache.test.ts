import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDiskCache } from '../../../generators/build/emit-cache.js';
import { tempDir } from '../../helpers.js';

const files = (text: string) => [{ path: 'a/package.json', contents: text }];

describe('the disk emit cache stays one build deep', () => {
  it("a group's new entry replaces its older ones, even an earlier build's, and not those of a group named like it plus --", () => {
    const dir = tempDir();
    const earlier = createDiskCache(dir, 'tool');
    earlier.set('account', 'key-1', files('1'));
    earlier.set('account--v2', 'key-1', files('other'));
    earlier.set('billing', 'key-1', files('b'));
    const cache = createDiskCache(dir, 'tool');
    cache.set('account', 'key-2', files('2'));
    cache.set('account', 'key-3', files('3'));
    expect(cache.get('account', 'key-1')).toBeUndefined();
    expect(cache.get('account', 'key-2')).toBeUndefined();
    expect(cache.get('account', 'key-3')).toEqual(files('3'));
    expect(cache.get('account--v2', 'key-1')).toEqual(files('other'));
    expect(cache.get('billing', 'key-1')).toEqual(files('b'));
    expect(readdirSync(dir)).toHaveLength(3);
  });
});
