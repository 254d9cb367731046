import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readIfExists } from '../../shared/fs.js';
import type { DigestMemo } from '../digests.js';
import { projectRoot } from '../fingerprint.js';
import { writeOutputs } from '../write.js';

// The folder record on disk: each table is stored as columns (arrays of names and of values), which
// parse faster than keyed JSON objects (a fresh hidden class per key; see docs/decisions/0003).

/** The file digests the folder record keeps, so the next no-op reads only what changed. */
export interface RecordedDigests {
  tool: DigestMemo;
  sources: DigestMemo;
}

/** The files at each package's top as recorded: path, size and modification time at one index. */
export interface TopFiles {
  paths: string[];
  sizes: number[];
  times: number[];
}

/** What the record holds, read back (see `foldersRecordPath`). */
export interface FolderStamps {
  state: { size: number; mtimeMs: number };
  /** The state's own fingerprint and file count, so a no-op need not parse the state itself. */
  inputHash: string;
  fileCount: number;
  /** Every output folder's modification time: names and times at one index. */
  folders: { names: string[]; times: number[] };
  /** The files at each package's top (one folder deep) as the state records them. */
  top: TopFiles;
  digests: RecordedDigests;
}

/** Version of the record's layout: a record of another is no record. */
const FORMAT = 'eventry-folder-record/2';

/** A table as stored: names, then one or two lists of values (the third empty for two columns). */
type Columns = [string[], unknown[], unknown[]];

/**
 * Where the folder record of an output lives: written after each build has committed, it holds the
 * modification time of every output folder then. A file created, removed or renamed in a folder
 * changes the folder's time, so folders as recorded mean the per-event files are all still there and
 * nothing was added. It is outside the commit (a folder's time is only known once the files moved
 * in), so it names the state file it belongs to (size and time) and counts for nothing otherwise; and
 * outside the output (in the project's git-ignored `.eventry/`), since it changes on every build.
 */
export function foldersRecordPath(catalogueDir: string, outDir: string): string {
  const id = createHash('sha256').update(resolve(outDir)).digest('hex').slice(0, 16);
  return join(projectRoot(catalogueDir), '.eventry', 'build', `folders-${id}.json`);
}

/** Writes the record; a failure to write it only costs the next no-op its quick check. */
export function writeFolderRecord(record: string, stamps: FolderStamps): void {
  const memo = (digests: DigestMemo): [string[], string[], string[]] => {
    const keys = Object.keys(digests);
    return [keys, keys.map((key) => digests[key]![0]), keys.map((key) => digests[key]![1])];
  };
  const text = JSON.stringify({
    format: FORMAT,
    state: stamps.state,
    inputHash: stamps.inputHash,
    fileCount: stamps.fileCount,
    folders: [stamps.folders.names, stamps.folders.times],
    top: [stamps.top.paths, stamps.top.sizes, stamps.top.times],
    tool: memo(stamps.digests.tool),
    sources: memo(stamps.digests.sources),
  });
  try {
    writeOutputs(dirname(record), [{ path: basename(record), contents: `${text}\n` }]);
  } catch {
    rmSync(record, { force: true });
  }
}

/** The record as last written, if it is there and whole (its digests hold whatever the state). */
export function readFolderRecord(record: string): FolderStamps | undefined {
  const text = readIfExists(record);
  if (!text) return undefined;
  try {
    const raw = JSON.parse(text);
    if (raw?.format !== FORMAT || typeof raw.inputHash !== 'string' || typeof raw.fileCount !== 'number') {
      return undefined;
    }
    const [folderNames, folderTimes] = columns(raw.folders, 2);
    const [paths, sizes, times] = columns(raw.top, 3);
    return {
      state: { size: number(raw.state?.size), mtimeMs: number(raw.state?.mtimeMs) },
      inputHash: raw.inputHash,
      fileCount: raw.fileCount,
      folders: { names: folderNames, times: folderTimes.map(number) },
      top: { paths, sizes: sizes.map(number), times: times.map(number) },
      digests: { tool: memoFrom(raw.tool), sources: memoFrom(raw.sources) },
    };
  } catch {
    return undefined;
  }
}

/** The record's folder times by folder (null prototype: the keys are group names). */
export function folderTimesOf(stamps: FolderStamps): Record<string, number> {
  const times: Record<string, number> = Object.create(null);
  const { names } = stamps.folders;
  for (let i = 0; i < names.length; i++) times[names[i]!] = stamps.folders.times[i]!;
  return times;
}

/** `count` arrays of one length, the first of strings; throws (a damaged record) otherwise. */
function columns(value: unknown, count: number): Columns {
  if (!Array.isArray(value) || value.length !== count || !value.every(Array.isArray))
    throw new Error('damaged');
  const [names, first, second = []] = value as unknown[][];
  if (
    !names!.every((name) => typeof name === 'string') ||
    value.some((list) => list.length !== names!.length)
  ) {
    throw new Error('damaged');
  }
  return [names as string[], first!, second];
}

function number(value: unknown): number {
  if (typeof value !== 'number') throw new Error('damaged');
  return value;
}

function memoFrom(value: unknown): DigestMemo {
  const [keys, stamps, digests] = columns(value, 3);
  const memo: DigestMemo = Object.create(null);
  for (let i = 0; i < keys.length; i++) memo[keys[i]!] = [String(stamps[i]), String(digests[i])];
  return memo;
}
