import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  readState,
  recordedCount,
  recordedFiles,
  STATE_DIR,
  STATE_FILE,
  sealState,
  stateFile,
} from '../../../generators/execute/fast/state-file.js';
import type { FileStats } from '../../../generators/execute/write.js';
import { tempDir } from '../../helpers.js';

const stat = (size: number) => ({ size, mtimeMs: 1_700_000_000_000 + size / 10 });

/** Files' stats as a build's commit hands them to the seal. */
const statsOf = (files: FileStats) => new Map(Object.entries(files));

/** Writes `state`'s files into `out`, as a commit would (its main file, and the folder files it made). */
function write(out: string, state: ReturnType<typeof sealState>) {
  const file = stateFile(state);
  writeFileSync(join(out, STATE_FILE), file.contents);
  for (const below of file.also) {
    if (below.text === undefined) continue;
    mkdirSync(dirname(join(out, below.path)), { recursive: true });
    writeFileSync(join(out, below.path), below.text);
  }
  return file;
}

/** Seals `files` into a fresh output folder's state file and reads it back. */
function roundTrip(state: ReturnType<typeof sealState>, out = tempDir()) {
  write(out, state);
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
    const read = roundTrip(sealState('abc', statsOf(files), { account: 'h1', billing: 'h2' }));
    expect(read?.inputHash).toBe('abc');
    expect({ ...read?.units }).toEqual({ account: 'h1', billing: 'h2' });
    expect({ ...recordedFiles(read!) }).toEqual(files);
    expect(recordedCount(read!)).toBe(6);
    expect([...read!.areas.keys()]).toEqual(['', 'account', 'billing', 'catalogue']);
  });

  it('a folder kept whole below its top takes the last state’s files there, and its top from the new stats', () => {
    const out = tempDir();
    const previous = roundTrip(sealState('abc', statsOf(files)), out)!;
    const newer = { 'account/package.json': stat(5), 'billing/package.json': stat(4) };
    const kept = sealState('def', statsOf(newer), undefined, previous, new Set(['account']));
    // The kept folder's file is named again, not made again (the output has it).
    expect(stateFile(kept).also.every((file) => file.text === undefined)).toBe(true);
    const sealed = roundTrip(kept, out)!;
    expect({ ...recordedFiles(sealed) }).toEqual({
      'account/events/account.created-v1.js': stat(12),
      'account/package.json': stat(5),
      'billing/package.json': stat(4),
    });
    expect(stateFile(sealed).contents).toBe(
      stateFile(sealState('def', statsOf({ ...newer, 'account/events/account.created-v1.js': stat(12) })))
        .contents,
    );
  });

  it('is the same whatever order the commit lists the files in, and names the folders of each folder’s files below its top', () => {
    const many: FileStats = { ...files, 'account/events/deep/x-v1.js': stat(2), 'account/z.md': stat(1) };
    const forward = sealState('abc', statsOf(many));
    const backward = sealState('abc', new Map(Object.entries(many).reverse()));
    expect(stateFile(backward).contents).toBe(stateFile(forward).contents);
    expect(stateFile(backward).also).toEqual(stateFile(forward).also);
    expect([...forward.areas.get('account')!.folders()].sort()).toEqual([
      'account',
      'account/events',
      'account/events/deep',
    ]);
    // Read back from its file, a folder names the same folders.
    const read = roundTrip(backward)!;
    expect([...read.areas.get('account')!.folders()].sort()).toEqual([
      'account',
      'account/events',
      'account/events/deep',
    ]);
    expect([...read.areas.get('catalogue')!.folders()]).toEqual([]);
  });

  it('a state file of an older toolkit (one JSON object) or a damaged one counts as none', () => {
    const out = tempDir();
    writeFileSync(join(out, STATE_FILE), `${JSON.stringify({ inputHash: 'abc', files })}\n`);
    expect(readState(out)).toBeUndefined();
    const text = stateFile(sealState('abc', statsOf(files))).contents;
    writeFileSync(join(out, STATE_FILE), text.slice(0, text.length - 20));
    expect(readState(out)).toBeUndefined();
  });

  it('a folder’s files below its top match the recorded ones only when exactly those, with the same stats', () => {
    const catalogue: FileStats = {
      'catalogue/package.json': stat(1),
      'catalogue/schemas/a-v1.json': stat(10),
      'catalogue/schemas/b-v1.json': stat(20),
    };
    const area = roundTrip(sealState('abc', statsOf(catalogue)))!.areas.get('catalogue')!;
    const below = { 'catalogue/schemas/a-v1.json': stat(10), 'catalogue/schemas/b-v1.json': stat(20) };
    expect(area.isBelow(below)).toBe(true);
    expect(area.isBelow({ 'catalogue/schemas/a-v1.json': stat(10) })).toBe(false);
    expect(area.isBelow({ ...below, 'catalogue/schemas/b-v1.json': { size: 20, mtimeMs: 1 } })).toBe(false);
    expect(area.isBelow({ ...below, 'catalogue/schemas/c-v1.json': stat(30) })).toBe(false);
  });

  it('each folder’s files below its top are read from its own file, only when asked; a damaged one counts as changed', () => {
    const out = tempDir();
    const file = write(out, sealState('abc', statsOf(files)));
    // One file per folder with files below its top (account, billing, catalogue has none below).
    expect(file.also.map((below) => below.path).sort()).toEqual(
      readdirSync(join(out, STATE_DIR))
        .map((name) => `${STATE_DIR}/${name}`)
        .sort(),
    );
    expect(file.also).toHaveLength(2);
    const read = readState(out)!;
    rmSync(join(out, STATE_DIR), { recursive: true });
    // Not read with the main file: gone now, the folders' files read as damaged, which no output matches.
    expect(read.areas.get('account')!.isBelow({ 'account/events/account.created-v1.js': stat(12) })).toBe(
      false,
    );
    const again = roundTrip(sealState('abc', statsOf(files)), out)!;
    const account = again.areas.get('account')!;
    expect(account.isBelow({ 'account/events/account.created-v1.js': stat(12) })).toBe(true);
    const [first] = file.also;
    writeFileSync(join(out, first!.path), '{"events/account.created-v1.js":[12,1]}');
    const damaged = readState(out)!;
    const areas = [...damaged.areas.values()].filter((area) => area.belowCount > 0);
    expect(
      areas.some((area) => Object.keys(area.below()).some((path) => path.endsWith('.eventry-damaged-state'))),
    ).toBe(true);
  });
});
