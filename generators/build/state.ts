import { createHash } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { type CatalogueSourceFile, readCatalogueSources } from '../load/sources.js';
import { readIfExists } from '../shared/fs.js';
import { hashInputs, projectRoot, toolFingerprint } from './fingerprint.js';
import { type BuildState, readState, recordedCount, recordedFiles, STATE_FILE } from './state-file.js';
import { areasOf, findOrphans, foldersOf, ownedAreas } from './sweep.js';
import { type FileStats, writeOutputs } from './write.js';

// The incremental build's memory and its no-op fast path. Kept free of the loader, ajv and the
// emitters: deciding "nothing to do" from hashes and file stats alone is what keeps a no-op rebuild
// in the tens of ms.

export { STATE_FILE } from './state-file.js';

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
  /** The top-level output folders none of whose folders changed since the record was taken. */
  untouchedAreas?: Set<string>;
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
  const recorded =
    stamps && unchanged
      ? { folderTimes: stamps.folders, unchanged, untouchedAreas: untouchedAreas(stamps.folders, unchanged) }
      : {};
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
  const fileCount = state ? recordedCount(state) : 0;
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
  /**
   * Top-level folders whose files below the top the build kept as recorded, in untouched folders:
   * their folders are the recorded ones (the state's line for them was not parsed).
   */
  keptBelow?: ReadonlySet<string>;
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
  const recordedByArea = known?.keptBelow ? foldersByArea(known.folderTimes) : undefined;
  const dirs = new Set<string>();
  const top: FileStats = Object.create(null);
  for (const [name, area] of state.areas) {
    if (name === '') continue;
    Object.assign(top, area.top);
    if (Object.keys(area.top).length > 0) dirs.add(name);
    const kept = known?.keptBelow?.has(name) ? recordedByArea?.get(name) : undefined;
    if (kept) for (const dir of kept) dirs.add(dir);
    else for (const dir of foldersOf(Object.keys(area.below()))) dirs.add(dir);
  }
  const folders: Record<string, number> = Object.create(null);
  for (const dir of [...dirs].sort()) {
    const recorded = known?.folderTimes[dir];
    if (recorded !== undefined && known!.unchanged.has(dir) && !touched.has(dir)) {
      folders[dir] = recorded;
      continue;
    }
    const stat = statSync(join(outDir, dir), { throwIfNoEntry: false });
    if (!stat) return;
    folders[dir] = stat.mtimeMs;
  }
  const stamps: FolderStamps = {
    state: { size: stateStat.size, mtimeMs: stateStat.mtimeMs },
    inputHash: state.inputHash,
    fileCount: recordedCount(state),
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

/** The recorded folders by top-level folder. */
function foldersByArea(folderTimes: Record<string, number>): Map<string, string[]> {
  const areas = new Map<string, string[]>();
  for (const dir of Object.keys(folderTimes)) {
    const slash = dir.indexOf('/');
    const area = slash < 0 ? dir : dir.slice(0, slash);
    const list = areas.get(area);
    if (list) list.push(dir);
    else areas.set(area, [dir]);
  }
  return areas;
}

/** The top-level folders all of whose recorded folders are `unchanged`. */
function untouchedAreas(folderTimes: Record<string, number>, unchanged: ReadonlySet<string>): Set<string> {
  const untouched = new Set<string>();
  for (const [area, dirs] of foldersByArea(folderTimes)) {
    if (dirs.every((dir) => unchanged.has(dir))) untouched.add(area);
  }
  return untouched;
}

/** The recorded files are there as written, and nothing else is in the folders the build owns. */
function outputsExact(outDir: string, state: BuildState): boolean {
  const files = recordedFiles(state);
  if (!outputsIntact(outDir, files)) return false;
  const recorded = new Set(Object.keys(files));
  const areas = ownedAreas(outDir, areasOf(recorded));
  const orphans = findOrphans(outDir, recorded, areas, areas);
  return orphans.files.length === 0 && orphans.emptyDirs.length === 0;
}

function outputsIntact(outDir: string, files: FileStats): boolean {
  for (const [path, expected] of Object.entries(files)) {
    try {
      const stat = statSync(join(outDir, path));
      if (stat.size !== expected.size || stat.mtimeMs !== expected.mtimeMs) return false;
    } catch {
      return false;
    }
  }
  return true;
}
