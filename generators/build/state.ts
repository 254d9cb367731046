import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { OutputFile } from '../emit/context.js';
import { type CatalogueSourceFile, readCatalogueSources } from '../load/sources.js';
import { readIfExists } from '../shared/fs.js';
import { hashInputs, projectRoot, toolFingerprint } from './fingerprint.js';
import { areasOf, findOrphans, ownedAreas } from './sweep.js';
import { type FileStats, writeOutputs } from './write.js';

// The incremental build's memory and its no-op fast path. Kept free of the loader, ajv and the
// emitters: deciding "nothing to do" from hashes and file stats alone is what keeps a no-op rebuild
// in the tens of ms.

/**
 * Where the incremental build remembers what it wrote (inside the output root, git-ignored). It is
 * committed in the same transaction as the files it describes, so it never disagrees with them.
 */
export const STATE_FILE = '.eventry-build-state.json';

/**
 * What the state file records: the inputs' fingerprint, the stats of every file written, and each
 * group package's unit hash (its inputs and the toolkit), which lets an edit skip the untouched groups.
 */
export interface BuildState {
  inputHash: string;
  files: FileStats;
  units?: Record<string, string>;
}

/** What a build starts from: the catalogue read, the fingerprints, and whether the output is current. */
export interface BuildPlan {
  sources: CatalogueSourceFile[];
  /** The toolkit's fingerprint (the emit cache keys its entries with it). */
  tool: string;
  /** The fingerprint of toolkit and catalogue together, recorded in the state file. */
  inputHash: string;
  /** The state file of the last build, if any (unreadable counts as none). */
  state?: BuildState;
  /** The output is exactly what these inputs build: nothing to do. */
  upToDate: boolean;
  /** The output's folder record (`foldersRecordPath`). */
  foldersRecord: string;
  /** The folder record, when it was taken for the state file in the output (its folders' times). */
  folderTimes?: Record<string, number>;
  /** The output folders whose time is still the recorded one (see `foldersRecordPath`). */
  unchanged?: Set<string>;
  /** How many files the output has (when up to date). */
  fileCount: number;
}

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

interface FolderStamps {
  state: { size: number; mtimeMs: number };
  /** The state's own fingerprint and file count, so a no-op need not parse the state itself. */
  inputHash: string;
  fileCount: number;
  folders: Record<string, number>;
  /** The files at each package's top (one folder deep) as the state records them. */
  top: FileStats;
}

/** Reads the catalogue and the last build's state, and decides whether the output is already current. */
export function planBuild(catalogueDir: string, outDir: string, force = false): BuildPlan {
  const foldersRecord = foldersRecordPath(catalogueDir, outDir);
  const sources = readCatalogueSources(catalogueDir);
  const tool = toolFingerprint();
  const inputHash = hashInputs(sources, tool);
  // The folder record, read once: the quick no-op decides from it, an edit trusts untouched folders to it.
  const stamps = readStamps(outDir, foldersRecord);
  const unchanged = stamps ? foldersUnchanged(outDir, stamps) : undefined;
  const recorded = stamps && unchanged ? { folderTimes: stamps.folders, unchanged } : {};
  if (!force && stamps && unchanged) {
    // The quick no-op: the folder record alone, without parsing the state (56,000 entries at 10k events).
    if (stamps.inputHash === inputHash && foldersAsRecorded(outDir, stamps, unchanged)) {
      return { sources, tool, inputHash, upToDate: true, foldersRecord, fileCount: stamps.fileCount };
    }
  }
  const state = readState(outDir);
  let upToDate = false;
  if (!force && state !== undefined && state.inputHash === inputHash) {
    if (outputsExact(outDir, state)) {
      // Current after the full check: record the folders so the next no-op is the quick one.
      upToDate = true;
      stampFolders(outDir, foldersRecord, state);
    }
  }
  const fileCount = state ? Object.keys(state.files).length : 0;
  return {
    sources,
    tool,
    inputHash,
    ...(state ? { state } : {}),
    upToDate,
    foldersRecord,
    ...recorded,
    fileCount,
  };
}

/** What a build knows of the output's folders, which spares a stat of those it did not touch. */
export interface FolderKnowledge {
  /** The folder record's times (`BuildPlan.folderTimes`). */
  folderTimes: Record<string, number>;
  /** The folders still at their recorded time when the build started (`BuildPlan.unchanged`). */
  unchanged: ReadonlySet<string>;
  /** The folders the build's commit changed (`WriteReport.touched`). */
  touched: readonly string[];
}

/**
 * Records the output folders' times at `record` for the next no-op check (see `foldersRecordPath`).
 * Called once the output is exactly what `state`, the state file in the output, describes; a failure
 * to write it only costs that check. With `known`, a folder that was as recorded when the build
 * started and that its commit did not touch keeps its recorded time (not its time now: a file dropped
 * there meanwhile was not swept, so the next build must see the folder changed); the rest are stat'ed.
 */
export function stampFolders(
  outDir: string,
  record: string,
  state: BuildState,
  known?: FolderKnowledge,
): void {
  const stateStat = statSync(join(outDir, STATE_FILE), { throwIfNoEntry: false });
  if (!stateStat) return;
  const touched = new Set(known?.touched);
  const folders: Record<string, number> = Object.create(null);
  for (const dir of [...outputFolders(state)].sort()) {
    const recorded = known?.folderTimes[dir];
    if (recorded !== undefined && known!.unchanged.has(dir) && !touched.has(dir)) {
      folders[dir] = recorded;
      continue;
    }
    const stat = statSync(join(outDir, dir), { throwIfNoEntry: false });
    if (!stat) return;
    folders[dir] = stat.mtimeMs;
  }
  const top: FileStats = Object.create(null);
  for (const [path, stat] of Object.entries(state.files)) {
    const slash = path.indexOf('/');
    if (slash > 0 && path.indexOf('/', slash + 1) === -1) top[path] = stat;
  }
  const stamps: FolderStamps = {
    state: { size: stateStat.size, mtimeMs: stateStat.mtimeMs },
    inputHash: state.inputHash,
    fileCount: Object.keys(state.files).length,
    folders,
    top,
  };
  try {
    writeOutputs(dirname(record), [{ path: basename(record), contents: `${JSON.stringify(stamps)}\n` }]);
  } catch {
    rmSync(record, { force: true });
  }
}

/**
 * The quick no-op check: every output folder has the time recorded after the last build (`unchanged`
 * holds them all: no file added, removed or renamed anywhere), no stray `*.tmp` or unknown generated
 * folder sits at the root, and the files at each package's top (package.json, README.md, index.js, the
 * catalogue documents: what a person opens and might edit in place) have the recorded size and time.
 * The per-event files below are trusted to their folders; `--force` rebuilds regardless.
 */
function foldersAsRecorded(outDir: string, stamps: FolderStamps, unchanged: ReadonlySet<string>): boolean {
  if (unchanged.size !== Object.keys(stamps.folders).length) return false;
  const areas = new Set<string>();
  for (const [path, expected] of Object.entries(stamps.top)) {
    areas.add(path.slice(0, path.indexOf('/')));
    const stat = statSync(join(outDir, path), { throwIfNoEntry: false });
    if (stat?.size !== expected.size || stat.mtimeMs !== expected.mtimeMs) return false;
  }
  for (const area of areas) if (!(area in stamps.folders)) return false;
  // The root's own listing: orphans there are stray temporary files and generated folders of no group.
  const owned = ownedAreas(outDir, areas);
  if (owned.size !== areas.size) return false;
  return !readdirSync(outDir).some((name) => name.endsWith('.tmp'));
}

/** The recorded folders whose time is still the one recorded after the last build. */
function foldersUnchanged(outDir: string, stamps: FolderStamps): Set<string> {
  const unchanged = new Set<string>();
  for (const [dir, mtimeMs] of Object.entries(stamps.folders)) {
    if (statSync(join(outDir, dir), { throwIfNoEntry: false })?.mtimeMs === mtimeMs) unchanged.add(dir);
  }
  return unchanged;
}

/** The folder record, if it was taken for the state file now in the output. */
function readStamps(outDir: string, record: string): FolderStamps | undefined {
  const text = readIfExists(record);
  const stateStat = statSync(join(outDir, STATE_FILE), { throwIfNoEntry: false });
  if (!text || !stateStat) return undefined;
  try {
    const stamps = JSON.parse(text) as FolderStamps;
    const current = stamps.state?.size === stateStat.size && stamps.state.mtimeMs === stateStat.mtimeMs;
    return current && stamps.folders && stamps.top && typeof stamps.inputHash === 'string'
      ? stamps
      : undefined;
  } catch {
    return undefined;
  }
}

/** Every folder holding a recorded file, and the folders above it, but the output root. */
function outputFolders(state: BuildState): Set<string> {
  const folders = new Set<string>();
  for (const path of Object.keys(state.files)) {
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      const dir = path.slice(0, slash);
      if (folders.has(dir)) break;
      folders.add(dir);
    }
  }
  return folders;
}

/** The state file to commit with a build's output, for the files it wrote. */
export function stateFile(inputHash: string, files: FileStats, units?: Record<string, string>): OutputFile {
  return {
    path: STATE_FILE,
    contents: `${JSON.stringify({ inputHash, files, ...(units ? { units } : {}) })}\n`,
  };
}

/** The recorded files are there as written, and nothing else is in the folders the build owns. */
function outputsExact(outDir: string, state: BuildState): boolean {
  if (!outputsIntact(outDir, state)) return false;
  const recorded = new Set(Object.keys(state.files));
  const areas = ownedAreas(outDir, areasOf(recorded));
  const orphans = findOrphans(outDir, recorded, areas, areas);
  return orphans.files.length === 0 && orphans.emptyDirs.length === 0;
}

function outputsIntact(outDir: string, state: BuildState): boolean {
  for (const [path, expected] of Object.entries(state.files)) {
    try {
      const stat = statSync(join(outDir, path));
      if (stat.size !== expected.size || stat.mtimeMs !== expected.mtimeMs) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function readState(outDir: string): BuildState | undefined {
  const text = readIfExists(join(outDir, STATE_FILE));
  if (!text) return undefined;
  try {
    return JSON.parse(text) as BuildState;
  } catch {
    return undefined;
  }
}
