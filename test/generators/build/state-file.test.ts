import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  readState,
  recordedCount,
  recordedFiles,
  STATE_FILE,
  sealState,
  stateFile,
} from '../../../generators/build/state-file.js';
import type { FileStats } from '../../../generators/build/write.js';
import { tempDir } from '../../helpers.js';

const stat = (size: number) => ({ size, mtimeMs: 1_700_000_000_000 + size / 10 });

/** Seals `files` into a fresh output folder's state file and reads it back. */
function roundTrip(state: ReturnType<typeof sealState>) {
  const out = tempDir();
  writeFileSync(join(out, STATE_FILE), stateFile(state).contents);
  return readState(out);
}

describe('the build state file, one line per output folder', () => {
  const files: FileStats = {
    'account/events/account.created-v1.js': stat(12),
    'account/package.json': stat(3),
    'billing/package.json': stat(4),
    'billing/schemas/billing.paid-v1.json': stat(25),
    'catalogue/openapi.json': stat(900),
    'notes.txt': stat(7),
  };

  it('reads back every file it records, with its stats, the unit hashes and the input hash', () => {
    const read = roundTrip(sealState('abc', files, { account: 'h1', billing: 'h2' }));
    expect(read?.inputHash).toBe('abc');
    expect({ ...read?.units }).toEqual({ account: 'h1', billing: 'h2' });
    expect({ ...recordedFiles(read!) }).toEqual(files);
    expect(recordedCount(read!)).toBe(6);
    expect([...read!.areas.keys()]).toEqual(['', 'account', 'billing', 'catalogue']);
  });

  it('a folder kept whole below its top takes the last state’s files there, and its top from the new stats', () => {
    const previous = roundTrip(sealState('abc', files))!;
    const newer = { 'account/package.json': stat(5), 'billing/package.json': stat(4) };
    const sealed = roundTrip(sealState('def', newer, undefined, previous, new Set(['account'])))!;
    expect({ ...recordedFiles(sealed) }).toEqual({
      'account/events/account.created-v1.js': stat(12),
      'account/package.json': stat(5),
      'billing/package.json': stat(4),
    });
    expect(stateFile(sealed).contents).toBe(
      stateFile(sealState('def', { ...newer, 'account/events/account.created-v1.js': stat(12) })).contents,
    );
  });

  it('a state file of an older toolkit (one JSON object) or a damaged one counts as none', () => {
    const out = tempDir();
    writeFileSync(join(out, STATE_FILE), `${JSON.stringify({ inputHash: 'abc', files })}\n`);
    expect(readState(out)).toBeUndefined();
    const text = stateFile(sealState('abc', files)).contents;
    writeFileSync(join(out, STATE_FILE), text.slice(0, text.length - 20));
    expect(readState(out)).toBeUndefined();
  });

  it('a folder’s files below its top match the recorded ones only when exactly those, with the same stats', () => {
    const catalogue: FileStats = {
      'catalogue/package.json': stat(1),
      'catalogue/schemas/a-v1.json': stat(10),
      'catalogue/schemas/b-v1.json': stat(20),
    };
    const area = roundTrip(sealState('abc', catalogue))!.areas.get('catalogue')!;
    const below = { 'catalogue/schemas/a-v1.json': stat(10), 'catalogue/schemas/b-v1.json': stat(20) };
    expect(area.isBelow(below)).toBe(true);
    expect(area.isBelow({ 'catalogue/schemas/a-v1.json': stat(10) })).toBe(false);
    expect(area.isBelow({ ...below, 'catalogue/schemas/b-v1.json': { size: 20, mtimeMs: 1 } })).toBe(false);
    expect(area.isBelow({ ...below, 'catalogue/schemas/c-v1.json': stat(30) })).toBe(false);
  });
});
