import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDiskCache } from '../../../generators/execute/fast/emit-cache.js';
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

  it("a killed build's temporary files are swept at the next write, a running build's are left alone", () => {
    const dir = tempDir();
    createDiskCache(dir, 'tool').set('account', 'key-1', files('1'));
    // A build killed between writing and renaming, an hour ago: an entry's and the parse cache's.
    const stale = ['account--0123.entry.a1b2c3d4.tmp', 'parse.v8.d4c3b2a1.tmp'];
    const old = new Date(Date.now() - 60 * 60 * 1000);
    for (const name of stale) {
      writeFileSync(join(dir, name), 'half');
      utimesSync(join(dir, name), old, old);
    }
    // One a build running beside this one is writing now.
    const fresh = 'billing--4567.entry.e5f6a7b8.tmp';
    writeFileSync(join(dir, fresh), 'in progress');
    createDiskCache(dir, 'tool').set('account', 'key-2', files('2'));
    expect(readdirSync(dir).sort()).toEqual([expect.stringMatching(/^account--[0-9a-f]{32}\.entry$/), fresh]);
  });
});

describe('the disk emit cache looks entries up in one listing of its folder', () => {
  it('finds what an earlier build and this one wrote; with no folder yet it finds nothing and makes none', () => {
    const dir = join(tempDir(), 'cache');
    const first = createDiskCache(dir, 'tool');
    expect(first.get('account', 'key-1')).toBeUndefined();
    expect(existsSync(dir)).toBe(false);
    first.set('account', 'key-1', files('1'));
    expect(first.get('account', 'key-1')).toEqual(files('1'));
    const next = createDiskCache(dir, 'tool');
    expect(next.get('account', 'key-1')).toEqual(files('1'));
    expect(next.get('account', 'key-2')).toBeUndefined();
    expect(next.get('billing', 'key-1')).toBeUndefined();
  });
});

describe('the disk emit cache gives a unit’s last entry whatever its key', () => {
  it('with what was set beside its files; none for a unit it has no entry of', () => {
    const dir = join(tempDir(), 'cache');
    expect(createDiskCache(dir, 'tool').last!('account')).toBeUndefined();
    createDiskCache(dir, 'tool').set('account', 'key-1', files('1'), [{ place: 1 }]);
    expect(createDiskCache(dir, 'tool').last!('account')).toEqual({
      files: files('1'),
      extra: [{ place: 1 }],
    });
    const cache = createDiskCache(dir, 'tool');
    cache.set('account', 'key-2', files('2'));
    expect(cache.last!('account')).toEqual({ files: files('2') });
    expect(cache.last!('billing')).toBeUndefined();
    // Another toolkit's entry (the first build after an upgrade) gives nothing to reuse.
    expect(createDiskCache(dir, 'new-tool').last!('account')).toBeUndefined();
    writeFileSync(join(dir, readdirSync(dir)[0]!), '[1, 2]');
    expect(createDiskCache(dir, 'tool').last!('account')).toBeUndefined();
    expect(createDiskCache(dir, 'tool').get('account', 'key-2')).toBeUndefined();
  });
});

describe('the disk emit cache gives back only files an emitter could have made', () => {
  it('an entry with a file outside the output, at an absolute path or without text is not reused', () => {
    const dir = join(tempDir(), 'cache');
    for (const bad of [
      { path: '../../../escape.txt', contents: 'x' },
      { path: 'account/./index.js', contents: 'x' },
      { path: '/etc/passwd', contents: 'x' },
      { path: 5, contents: 'x' },
      { path: 'account/index.js' },
    ]) {
      const cache = createDiskCache(dir, 'tool');
      cache.set('account', 'key-1', [...files('1'), bad as never], [{ place: 1 }]);
      const next = createDiskCache(dir, 'tool');
      expect(next.get('account', 'key-1')).toBeUndefined();
      expect(next.last!('account')).toBeUndefined();
    }
    createDiskCache(dir, 'tool').set('account', 'key-1', files('1'));
    expect(createDiskCache(dir, 'tool').get('account', 'key-1')).toEqual(files('1'));
  });
});

describe('an entry holds the files’ texts exactly, and one cut short or altered is not reused', () => {
  it('gives back texts of any characters and size, empty ones included, with what was set beside them', () => {
    const dir = tempDir();
    const texts = [
      { path: 'a/README.md', contents: 'Zählerstand — “quoted” 😀 \\ \n\t"\u2028' },
      { path: 'a/empty.d.ts', contents: '' },
      // More than the buffer an entry starts from (1 MB), in characters of three bytes.
      { path: 'a/events/big.js', contents: '€'.repeat(700_000) },
    ];
    createDiskCache(dir, 'tool').set('account', 'key-1', texts, [{ place: 'x' }]);
    createDiskCache(dir, 'tool').set('billing', 'key-1', files('after the big one'));
    const next = createDiskCache(dir, 'tool');
    expect(next.get('account', 'key-1')).toEqual(texts);
    expect(next.last!('account')).toEqual({ files: texts, extra: [{ place: 'x' }] });
    expect(next.get('billing', 'key-1')).toEqual(files('after the big one'));
  });

  it('an entry cut short, grown, or whose sizes are not its texts’ gives nothing', () => {
    const dir = tempDir();
    const texts = [...files('{"name": "a"}'), { path: 'a/index.js', contents: 'export {};\n' }];
    const write = () => createDiskCache(dir, 'tool').set('account', 'key-1', texts);
    const entry = () => join(dir, readdirSync(dir)[0]!);
    write();
    const whole = readFileSync(entry());
    for (const damaged of [
      whole.subarray(0, whole.length - 1),
      Buffer.concat([whole, Buffer.from('x')]),
      Buffer.from(whole.toString('latin1').replace('"sizes":[13,11]', '"sizes":[13,12]'), 'latin1'),
      Buffer.from(whole.toString('latin1').replace('"sizes":[13,11]', '"sizes":[-1,25]'), 'latin1'),
      whole.subarray(0, whole.indexOf(0x0a)),
    ]) {
      expect(damaged.equals(whole)).toBe(false);
      writeFileSync(entry(), damaged);
      expect(createDiskCache(dir, 'tool').get('account', 'key-1')).toBeUndefined();
      expect(createDiskCache(dir, 'tool').last!('account')).toBeUndefined();
    }
    writeFileSync(entry(), whole);
    expect(createDiskCache(dir, 'tool').get('account', 'key-1')).toEqual(texts);
  });

  it('an entry of the format before (one JSON text, `.json`) is removed when the folder is first listed', () => {
    const dir = tempDir();
    const old = `group-package-account--${'0'.repeat(32)}.json`;
    writeFileSync(join(dir, old), '{"tool":"tool","files":[]}');
    writeFileSync(join(dir, 'notes.json'), '{}');
    const cache = createDiskCache(dir, 'tool');
    expect(cache.get('group-package-account', 'key-1')).toBeUndefined();
    expect(existsSync(join(dir, old))).toBe(false);
    expect(existsSync(join(dir, 'notes.json'))).toBe(true);
  });
});
