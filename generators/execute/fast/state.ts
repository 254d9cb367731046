import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type CatalogueSourceFile, listCatalogueFiles, readCatalogueSources } from '../../load/sources.js';
import { inside } from '../../shared/fs.js';
import { FileDigests } from '../digests.js';
import { digestSources, hashInputs, type SourceDigest, toolFingerprint } from '../fingerprint.js';
import { areasOf, findOrphans, ownedAreas } from '../sweep.js';
import type { FileStats } from '../write.js';
import {
  type FolderStamps,
  foldersRecordPath,
  folderTimesOf,
  type RecordedDigests,
  readFolderRecord,
  type TopFiles,
  writeFolderRecord,
} from './folder-record.js';
import { type BuildState, readState, recordedCount, recordedFiles, STATE_FILE } from './state-file.js';

// The incremental build's memory and its no-op fast path. Kept free of the loader, ajv and the
// emitters: deciding "nothing to do" from file stats alone (of the output's folders and top files,
// and of the catalogue's and toolkit's files, whose digests are remembered) keeps a no-op at 10,000
// events near the cost of the process start.

export { foldersRecordPath, type RecordedDigests } from './folder-record.js';
export { STATE_FILE } from './state-file.js';

/** What a build starts from: the catalogue read, the fingerprints, and whether the output is current. */
export interface BuildPlan {
  /** The catalogue's files (not read when the output is up to date: empty then). */
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
  /** The digests of the toolkit's and the catalogue's files, for the folder record (see `FileDigests`). */
  digests: RecordedDigests;
}

/**
 * Reads the catalogue and the last build's state, and decides whether the output is already current;
 * `quick` false (the `quick-plan` twin off) neither reads nor writes the folder record: every input is
 * read and hashed, and every recorded output file stat'ed.
 */
export function planBuild(catalogueDir: string, outDir: string, force = false, quick = true): BuildPlan {
  const foldersRecord = foldersRecordPath(catalogueDir, outDir);
  const record = quick ? readFolderRecord(foldersRecord) : undefined;
  const now = Date.now();
  const toolDigests = new FileDigests(record?.digests.tool, now);
  const tool = toolFingerprint(undefined, toolDigests);
  // The catalogue by the digests of its files: only those whose stat changed are read.
  const sourceDigests = new FileDigests(record?.digests.sources, now);
  const known = digestCatalogue(catalogueDir, sourceDigests);
  const digests = () => ({ tool: toolDigests.next, sources: sourceDigests.next });
  // The folder record, read once: the quick no-op decides from it, an edit trusts untouched folders to it.
  const stamps = record && stampsCurrent(outDir, record) ? record : undefined;
  const unchanged = stamps ? foldersUnchanged(outDir, stamps) : undefined;
  if (!force && stamps && unchanged && known) {
    // The quick no-op: the folder record alone, without parsing the state (see docs/decisions/0003).
    const inputHash = hashInputs(known, tool);
    if (stamps.inputHash === inputHash && foldersAsRecorded(outDir, stamps, unchanged)) {
      return {
        sources: [],
        tool,
        inputHash,
        upToDate: true,
        foldersRecord,
        fileCount: stamps.fileCount,
        digests: digests(),
      };
    }
  }
  const recorded = stamps && unchanged ? folderKnowledge(folderTimesOf(stamps), unchanged) : {};
  const sources = readCatalogueSources(catalogueDir);
  const inputHash = hashInputs(digestSources(sources), tool);
  const state = readState(outDir);
  let upToDate = false;
  if (!force && state !== undefined && state.inputHash === inputHash) {
    if (outputsExact(outDir, state)) {
      // Current after the full check: record the folders so the next no-op is the quick one.
      upToDate = true;
      if (quick) stampFolders(outDir, foldersRecord, state, digests());
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
    digests: digests(),
  };
}

/**
 * The catalogue's files by digest, read only where a file's stat differs from the memo's; undefined
 * when a file or folder cannot be read (reading the sources whole then says why).
 */
function digestCatalogue(catalogueDir: string, digests: FileDigests): SourceDigest[] | undefined {
  try {
    const paths = listCatalogueFiles(catalogueDir);
    return paths?.map((path) => ({ path, digest: digests.digest(path, inside(catalogueDir, path)) }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === undefined) throw error; // a bug, not the folder
    return undefined;
  }
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
  digests: RecordedDigests,
  known?: FolderKnowledge,
): void {
  const stateStat = statSync(join(outDir, STATE_FILE), { throwIfNoEntry: false });
  if (!stateStat) return;
  const touched = new Set(known?.touched);
  const recordedByArea = known?.keptBelow ? foldersByArea(known.folderTimes) : undefined;
  const dirs = new Set<string>();
  const top: TopFiles = { paths: [], sizes: [], times: [] };
  for (const [name, area] of state.areas) {
    if (name === '') continue;
    for (const [path, stat] of Object.entries(area.top)) {
      top.paths.push(path);
      top.sizes.push(stat.size);
      top.times.push(stat.mtimeMs);
    }
    if (Object.keys(area.top).length > 0) dirs.add(name);
    const kept = known?.keptBelow?.has(name) ? recordedByArea?.get(name) : undefined;
    if (kept) for (const dir of kept) dirs.add(dir);
    else for (const dir of area.folders()) dirs.add(dir);
  }
  const folders = { names: [...dirs].sort(), times: [] as number[] };
  for (const dir of folders.names) {
    const recorded = known?.folderTimes[dir];
    if (recorded !== undefined && known!.unchanged.has(dir) && !touched.has(dir)) {
      folders.times.push(recorded);
      continue;
    }
    const stat = statSync(inside(outDir, dir), { throwIfNoEntry: false });
    if (!stat) return;
    folders.times.push(stat.mtimeMs);
  }
  writeFolderRecord(record, {
    state: { size: stateStat.size, mtimeMs: stateStat.mtimeMs },
    inputHash: state.inputHash,
    fileCount: recordedCount(state),
    folders,
    top,
    digests,
  });
}

/**
 * The quick no-op check: every output folder has the time recorded after the last build (`unchanged`
 * holds them all: no file added, removed or renamed anywhere), no stray `*.tmp` or unknown generated
 * folder sits at the root, and the files at each package's top (package.json, README.md, index.js, the
 * catalogue documents: what a person opens and might edit in place) have the recorded size and time.
 * The per-event files below are trusted to their folders; `--force` rebuilds regardless.
 */
function foldersAsRecorded(outDir: string, stamps: FolderStamps, unchanged: ReadonlySet<string>): boolean {
  if (unchanged.size !== stamps.folders.names.length) return false;
  const areas = new Set<string>();
  const { paths, sizes, times } = stamps.top;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    areas.add(path.slice(0, path.indexOf('/')));
    const stat = statSync(inside(outDir, path), { throwIfNoEntry: false });
    if (stat?.size !== sizes[i]! || stat.mtimeMs !== times[i]!) return false;
  }
  for (const area of areas) if (!unchanged.has(area)) return false;
  // The root's own listing: orphans there are stray temporary files and generated folders of no group.
  const owned = ownedAreas(outDir, areas);
  if (owned.size !== areas.size) return false;
  return !readdirSync(outDir).some((name) => name.endsWith('.tmp'));
}

/** The recorded folders whose time is still the one recorded after the last build. */
function foldersUnchanged(outDir: string, stamps: FolderStamps): Set<string> {
  const unchanged = new Set<string>();
  const { names, times } = stamps.folders;
  for (let i = 0; i < names.length; i++) {
    const dir = names[i]!;
    if (statSync(inside(outDir, dir), { throwIfNoEntry: false })?.mtimeMs === times[i]) unchanged.add(dir);
  }
  return unchanged;
}

/** Whether the folder record was taken for the state file now in the output. */
function stampsCurrent(outDir: string, stamps: FolderStamps): boolean {
  const stateStat = statSync(join(outDir, STATE_FILE), { throwIfNoEntry: false });
  return (
    stateStat !== undefined &&
    stamps.state?.size === stateStat.size &&
    stamps.state.mtimeMs === stateStat.mtimeMs
  );
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

/** What the folder record tells an edit build (`BuildPlan`'s folder fields). */
function folderKnowledge(
  folderTimes: Record<string, number>,
  unchanged: Set<string>,
): Pick<BuildPlan, 'folderTimes' | 'unchanged' | 'untouchedAreas'> {
  return { folderTimes, unchanged, untouchedAreas: untouchedAreas(folderTimes, unchanged) };
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
  const orphans = findOrphans(outDir, recorded, areas, areas, (path) => recorded.has(path));
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
