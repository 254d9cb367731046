import { statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestOf, FileDigests } from '../../generators/execute/digests.js';
import { tempDir } from '../helpers.js';

// The no-op build's memo of file digests: a file whose stat is as remembered is not read again.
describe('file digests remembered by stat', () => {
  /** A run this far after the files were written, so their times are no longer racy. */
  const later = () => Date.now() + 10_000;

  it('reads a file once, then takes its digest from the memo while its stat is unchanged', () => {
    const file = join(tempDir('eventry-digests-'), 'billing.yaml');
    writeFileSync(file, 'events: {}\n');
    const first = new FileDigests(undefined, later());
    expect(first.digest('billing.yaml', file)).toBe(digestOf('events: {}\n'));
    expect(first.read).toBe(1);
    const second = new FileDigests(first.next, later());
    expect(second.digest('billing.yaml', file)).toBe(digestOf('events: {}\n'));
    expect(second.read).toBe(0);
  });

  it('reads a file again when it was rewritten with the same size and its modification time put back', () => {
    const file = join(tempDir('eventry-digests-'), 'billing.yaml');
    writeFileSync(file, 'version: 1\n');
    const first = new FileDigests(undefined, later());
    first.digest('billing.yaml', file);
    const { atime, mtime } = statSync(file);
    writeFileSync(file, 'version: 2\n');
    utimesSync(file, atime, mtime);
    const second = new FileDigests(first.next, later());
    expect(second.digest('billing.yaml', file)).toBe(digestOf('version: 2\n'));
    expect(second.read).toBe(1);
  });

  it('does not remember a file written in the moment it was read (it could change again unseen)', () => {
    const file = join(tempDir('eventry-digests-'), 'billing.yaml');
    writeFileSync(file, 'version: 1\n');
    const digests = new FileDigests(undefined, Date.now());
    digests.digest('billing.yaml', file);
    expect(Object.keys(digests.next)).toEqual([]);
  });

  it('keeps file keys named like object members apart from the memo’s own members', () => {
    const dir = tempDir('eventry-digests-');
    writeFileSync(join(dir, '__proto__'), 'a\n');
    writeFileSync(join(dir, 'constructor'), 'b\n');
    expect(new FileDigests(undefined, later()).digest('constructor', join(dir, 'constructor'))).toBe(
      digestOf('b\n'),
    );
    const first = new FileDigests(undefined, later());
    first.digest('__proto__', join(dir, '__proto__'));
    first.digest('constructor', join(dir, 'constructor'));
    const second = new FileDigests(first.next, later());
    expect(second.digest('__proto__', join(dir, '__proto__'))).toBe(digestOf('a\n'));
    expect(second.digest('constructor', join(dir, 'constructor'))).toBe(digestOf('b\n'));
    expect(second.read).toBe(0);
  });
});
