import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readIfExists, unlessAbsent } from '../shared/fs.js';
import type { CommitOptions, FileStat, FileStats } from './commit-types.js';
import { areasOf } from './sweep.js';

// The build state sealed into a commit, and the folders a commit finds as they were recorded. (split from write.ts, the writer).

/**
 * Stages the build state, made from the stats the files will have once moved in; its path if it changed.
 * One synchronous pass: the stats of staged and kept files are known, only the files found unchanged
 * in the output are stat'ed. A state the build knows `changed` (or whose files changed, `filesChanged`:
 * a staged file has a new time) is not compared with the one in the output.
 */
export function stageSeal(
  root: string,
  staging: string,
  paths: ReadonlySet<string>,
  staged: ReadonlyMap<string, { size: number; mtimeMs: number }>,
  known: ReadonlyMap<string, { size: number; mtimeMs: number }>,
  keptBelow: ReadonlySet<string>,
  filesChanged: boolean,
  seal: NonNullable<CommitOptions['seal']>,
): { staged: string[]; names: Set<string> } {
  // In the order produced (the seal sorts each folder's files), in a map: faster to fill than an
  // object's keys at this size (see docs/decisions/0102).
  const stats = new Map<string, FileStat>();
  for (const path of paths) {
    const kept = staged.get(path) ?? known.get(path);
    if (kept) {
      stats.set(path, kept);
      continue;
    }
    const { size, mtimeMs } = statSync(join(root, path));
    stats.set(path, { size, mtimeMs });
  }
  const state = seal(stats, keptBelow);
  const names = new Set<string>();
  const written: string[] = [];
  const made = new Set<string>();
  const stage = (path: string, contents: string) => {
    const target = join(staging, path);
    const folder = dirname(target);
    if (!made.has(folder)) mkdirSync(folder, { recursive: true });
    made.add(folder);
    writeFileSync(target, contents);
    written.push(path);
  };
  // The output's files of the seal's folders, listed once, not read file by file: a first build would
  // try to read one missing file per group (see docs/decisions/0102).
  const listed = new Map<string, ReadonlySet<string>>();
  const inOutput = (path: string) => {
    const folder = dirname(path);
    let listing = listed.get(folder);
    if (listing === undefined) {
      listing = new Set(unlessAbsent(() => readdirSync(join(root, folder))) ?? []);
      listed.set(folder, listing);
    }
    return listing.has(basename(path));
  };
  // The files the seal made (those of the folders not kept whole) are staged unless the output has
  // them as made (their names are their digests, but one may have been damaged since).
  for (const file of state.also ?? []) {
    names.add(file.path);
    if (
      file.text !== undefined &&
      (!inOutput(file.path) || readIfExists(join(root, file.path)) !== file.text)
    )
      stage(file.path, file.text);
  }
  if (
    filesChanged ||
    state.changed ||
    written.length > 0 ||
    readIfExists(join(root, state.path)) !== state.contents
  ) {
    stage(state.path, state.contents);
  }
  return { staged: written, names };
}

/**
 * Moves the files below the top of each folder of `settle` that this build produces exactly as
 * recorded (none staged, as many as recorded, each unchanged with the recorded stats) out of
 * `produced` into `keptAreas`; returns how many files that is.
 */
export function settleAreas(
  settle: ReadonlyMap<string, (files: FileStats) => boolean>,
  produced: Set<string>,
  put: readonly string[],
  known: ReadonlyMap<string, { size: number; mtimeMs: number }>,
  keptAreas: Set<string>,
): number {
  // A file staged below a folder's top: that folder is not as recorded (one staged at its top does not matter).
  const staged = areasOf(put.filter((path) => path.indexOf('/') !== path.lastIndexOf('/')));
  const below = new Map<string, string[]>();
  for (const path of produced) {
    const slash = path.indexOf('/');
    if (slash <= 0 || path.indexOf('/', slash + 1) === -1) continue;
    const area = path.slice(0, slash);
    if (!settle.has(area) || staged.has(area) || keptAreas.has(area)) continue;
    const paths = below.get(area);
    if (paths) paths.push(path);
    else below.set(area, [path]);
  }
  let settled = 0;
  for (const [area, paths] of below) {
    const files: FileStats = Object.create(null);
    for (const path of paths) {
      const stat = known.get(path);
      if (stat) files[path] = stat;
    }
    if (Object.keys(files).length !== paths.length || !settle.get(area)!(files)) continue;
    for (const path of paths) produced.delete(path);
    keptAreas.add(area);
    settled += paths.length;
  }
  return settled;
}
