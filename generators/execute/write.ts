/**
 * The single place that writes build output, transactionally (a redo journal, as databases do).
 *
 * The output root (`packages/`) mixes generated files with hand-kept ones (each package's CHANGELOG.md,
 * the version in package.json that `eventry version` maintains), so it cannot be swapped as a whole
 * folder. Instead `commitOutputs`:
 *   1. stages every changed file under `<root>/.eventry-staging/<id>/` and makes them durable (an fsync
 *      each, or one sync of the file system for many: `makeDurable`); an error here
 *      (e.g. ENAMETOOLONG from an over-long event key) deletes the staging folder and leaves the output
 *      untouched;
 *   2. writes the journal `<root>/.eventry-journal.json` (files to move in, files and folders to remove)
 *      to a temporary name, fsyncs it, and renames it into place: that rename is the commit point;
 *   3. applies the journal (rename each staged file over its target, remove orphans and empty folders);
 *      a top-level folder the output does not have yet (a new group package, or every one in a fresh
 *      output) is staged whole and moved in with one rename of the folder, not one per file;
 *   4. deletes the journal, then the staging folder.
 * Every build, and every command that reads the output, first calls `recoverOutput`: a journal present
 * means a commit happened, so it is applied again (each step is idempotent: a staged file already moved
 * is skipped); a staging folder without a journal is a build that died before committing and is deleted.
 * After a crash at any moment the output is therefore the last good set, or (once recovered) the new one.
 *
 * Removal is by sweep, not by memory: anything under the folders eventry owns (see `sweep.ts`) that the
 * build does not produce and that is not hand-kept goes, with the folders it leaves empty and stray
 * `*.tmp` files; so orphans from an older tool or a lost build state disappear on the next build.
 * Unchanged files are never touched (their mtime stays, which keeps rebuilds incremental).
 *
 * `EVENTRY_TEST_CRASH_AT=<phase>` makes the process SIGKILL itself at a named point (`staging-half`,
 * `before-commit`, `after-commit`, `apply-half`, `before-cleanup`; the last two also while a later
 * command recovers, so a kill during recovery is tested too); only the crash tests set it.
 */
import { randomBytes } from 'node:crypto';
import {
  close,
  closeSync,
  existsSync,
  fdatasync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { OutputFile } from '../emit/context.js';
import {
  fileStamp,
  inside,
  openForReading,
  readBytesIfExists,
  readIfExists,
  unlessAbsent,
} from '../shared/fs.js';
import type { OutputSink } from './fast/emit-context.js';
import { fileSystemSyncer } from './fast/file-system-sync.js';
import { clearLeftoverLock, isAlive, waitForReaders, whileReading } from './lock.js';
import { areasOf, findOrphans, foldersOf, ownedAreas } from './sweep.js';

/** The folder, inside the output root, where a build stages its files before committing them. */
export const STAGING_DIR = '.eventry-staging';

/** The redo journal; its presence means a build committed and its files must be moved in. */
export const JOURNAL_FILE = '.eventry-journal.json';

/** What a write changed. */
export interface WriteReport {
  written: string[];
  unchanged: number;
  removed: string[];
  /**
   * The output folders the commit made, entered a file in or removed one from (and the folders above
   * them): the only ones whose time the commit changed (see `stampFolders`).
   */
  touched: string[];
}

/** Size and mtime of an output file once committed: what the no-op check compares. */
export interface FileStat {
  size: number;
  mtimeMs: number;
}

/** Files' stats by output path. */
export type FileStats = Record<string, FileStat>;

/**
 * A file a build thread staged itself (`stageOnThread`), with the size and time it has, or found
 * unchanged in the output (no stats).
 */
export interface StagedFile {
  path: string;
  stats?: { size: number; mtimeMs: number };
}

/** Where a build thread stages a transaction's files: the output root and the staging folder. */
export interface StagingTarget {
  root: string;
  staging: string;
}

/** A file that could not be staged; nothing in the output was changed. */
export class WriteFailure extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
    cause: unknown,
  ) {
    super(`cannot write ${path} (${code})`, { cause });
  }
}

/**
 * What a seal makes: its file, and the other files it names (`also`), each with its text when the seal
 * made it, without when the output has it already (then it stays). `changed` says the build knows the
 * file differs from the one in the output, which spares reading that back.
 */
export type SealedFile = OutputFile & {
  changed?: boolean;
  also?: readonly { path: string; text?: string }[];
};

/** Options of `commitOutputs`. */
export interface CommitOptions {
  /** The top-level folders the last build produced files in: eventry's even if this build produces none there. */
  previousAreas?: Iterable<string>;
  /** Told once when the commit waits for commands reading the output (how many). */
  onReaders?: (readers: number) => void;
  /** Whether the last build recorded a file: outside package folders only such a file is swept. */
  previousFiles?: (path: string) => boolean;
  /**
   * Builds one more file from the committed files' stats (the build state), committed with them: the
   * stats of every file produced but those below the folders kept whole (`keptBelow`: see
   * `Staging.keepBelow` and `settle`), in no particular order. `changed` says the build knows the
   * state differs from the one in the output, which spares reading that back.
   */
  seal?: (stats: ReadonlyMap<string, FileStat>, keptBelow: ReadonlySet<string>) => SealedFile;
  /**
   * The top-level folder of the seal's other files (`SealedFile.also`): those it does not name are
   * removed with the commit.
   */
  sealFolder?: string;
  /**
   * Top-level folders none of whose folders changed since the last build, each with a check that
   * files are exactly those the last build recorded below its top, with the same size and time: a
   * folder whose files there this build produces all unchanged and passing that check is committed
   * as kept whole (`Staging.keepBelow`) — the catalogue's per-event schemas on an edit of one group.
   */
  settle?: ReadonlyMap<string, (files: FileStats) => boolean>;
}

interface Journal {
  staging: string;
  pid: number;
  /** Top-level folders absent from the output when staged: each is moved in whole. */
  putDirs?: string[];
  put: string[];
  remove: string[];
  removeDirs: string[];
}

/**
 * Makes the output root hold exactly `files` (plus hand-kept files), atomically as seen by any later
 * eventry command: see the comment at the top of this file.
 */
export async function commitOutputs(
  root: string,
  files: readonly OutputFile[],
  options: CommitOptions = {},
): Promise<WriteReport> {
  const staged = startStaging(root);
  await staged.add(files);
  return staged.commit(options);
}

/**
 * One build's transaction, fed a batch of files at a time (a group package as it is generated), so
 * the build never holds all its output in memory: each batch is compared with the output, what
 * differs is staged, and the contents are dropped. Nothing in the output changes before `commit`.
 */
export interface Staging {
  /** Stages the files of `files` that differ from the output; on failure throws `WriteFailure`, staging discarded. */
  add(files: readonly OutputFile[]): Promise<void>;
  /** Where another thread stages files for this transaction (`stageOnThread`). */
  readonly target: StagingTarget;
  /**
   * Records files another thread staged (or found unchanged) and makes the staged ones durable before
   * the commit; an fsync failure surfaces from `commit` as a `WriteFailure`, staging discarded.
   */
  addStaged(files: readonly StagedFile[]): void;
  /**
   * Files this build produces that are known to be in the output as they would be written (from the
   * build state); `stats`, their recorded size and time, spares the build state a stat of each.
   */
  keep(paths: readonly string[], stats?: FileStats): void;
  /**
   * The `count` files below the top of the top-level folder `area` (in its subfolders), produced by
   * this build as they are in the output, with nothing else in any of its folders, top included (a
   * group package kept whole whose folders are as the last build left them, `unchangedFolders`): they
   * are neither listed, stat'ed nor given to the seal, and the folder is not walked for orphans.
   */
  keepBelow(area: string, count: number): void;
  /** Commits what was added and kept as the whole output (see `commitOutputs`). */
  commit(options?: CommitOptions): Promise<WriteReport>;
  /** Drops everything staged; the output is as before (a root this build created is removed again). */
  abort(): void;
}

/** Starts a build's transaction on `root`, first recovering any interrupted one. */
export function startStaging(root: string): Staging {
  recoverOutput(root);
  const rootExisted = statSync(root, { throwIfNoEntry: false }) !== undefined;
  const id = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = join(root, STAGING_DIR, id);
  const produced = new Set<string>();
  const put: string[] = [];
  const known = new Map<string, { size: number; mtimeMs: number }>();
  // The folders kept whole below their top (`keepBelow`), and how many files that is.
  const keptAreas = new Set<string>();
  let keptBelow = 0;
  // The size and time of each staged file, taken from its open handle: a rename keeps them.
  const stagedStats = new Map<string, { size: number; mtimeMs: number }>();
  const mkdirs = new Map<string, Promise<unknown>>();
  // Whether each output folder existed when the build started looking: no file of a folder that does
  // not exist is read back, and a top-level folder that does not exist is moved in whole.
  const exists = folderMemo(root);
  // Every staged file, made durable at once before the commit (`makeDurable`).
  const unsynced: string[] = [];
  const early = earlyFlush(staging);
  const abort = () => {
    discardStaging(root, (pid) => pid === process.pid);
    if (!rootExisted) {
      try {
        rmdirSync(root);
      } catch {
        // Not empty (someone else's file) or already gone: left as it is.
      }
    }
  };
  const failing = (error: unknown): never => {
    abort();
    const { code, path } = error as NodeJS.ErrnoException;
    if (typeof code !== 'string' || typeof path !== 'string') throw error;
    throw new WriteFailure(outputPath(path, { root, staging }), code, error);
  };
  return {
    async add(files) {
      try {
        for (const file of files) produced.add(file.path);
        // Inside the try: reading a target whose name the file system rejects fails like writing it.
        for (const file of files) {
          if (!file.sunk) continue;
          const stats = settleSunk({ root, staging }, file, exists);
          if (!stats) continue;
          put.push(file.path);
          unsynced.push(file.path);
          stagedStats.set(file.path, stats);
          early.large(file.path, stats.size);
        }
        // A file found unchanged keeps the stats it was read with: the seal needs no stat of it.
        const changed = files.filter((file) => {
          if (file.sunk) return false;
          const same = inOutput(root, file, exists);
          if (typeof same === 'object') known.set(file.path, same);
          return same === false;
        });
        put.push(...changed.map((file) => file.path));
        unsynced.push(...changed.map((file) => file.path));
        await stageFiles(staging, changed, mkdirs, stagedStats);
        for (const file of changed) early.staged(stagedStats.get(file.path)?.size ?? 0, unsynced.length);
      } catch (error) {
        failing(error);
      }
    },
    target: { root, staging },
    addStaged(files) {
      for (const file of files) {
        produced.add(file.path);
        if (!file.stats) continue;
        put.push(file.path);
        unsynced.push(file.path);
        stagedStats.set(file.path, file.stats);
        early.staged(file.stats.size, unsynced.length);
      }
    },
    keep(paths, stats) {
      for (const path of paths) {
        produced.add(path);
        const stat = stats?.[path];
        if (stat) known.set(path, stat);
      }
    },
    keepBelow(area, count) {
      keptAreas.add(area);
      keptBelow += count;
    },
    async commit(options = {}) {
      const written = [...put].sort();
      // The files in `options.sealFolder` the seal names: kept there, the others removed.
      let sealNames: ReadonlySet<string> = new Set();
      if (options.settle) keptBelow += settleAreas(options.settle, produced, put, known, keptAreas);
      try {
        if (options.seal) {
          const sealed = stageSeal(
            root,
            staging,
            produced,
            stagedStats,
            known,
            keptAreas,
            put.length > 0,
            options.seal,
          );
          put.push(...sealed.staged);
          unsynced.push(...sealed.staged);
          sealNames = sealed.names;
        }
        await early.settled();
        await makeDurable(staging, unsynced);
      } catch (error) {
        failing(error);
      }
      const generated = areasOf(produced);
      const areas = ownedAreas(root, generated, keptAreas, options.previousAreas ?? []);
      const swept = new Set([...areas].filter((area) => !keptAreas.has(area)));
      const sealFolder = options.seal ? options.sealFolder : undefined;
      if (sealFolder !== undefined) swept.add(sealFolder);
      const kept = { has: (path: string) => produced.has(path) || sealNames.has(path) };
      const orphans = findOrphans(
        root,
        kept,
        swept,
        ownedAreas(root, generated, keptAreas),
        options.previousFiles,
      );
      const report: WriteReport = {
        written,
        unchanged: produced.size + keptBelow - written.length,
        // The seal's own files are the build's bookkeeping, not its output.
        removed:
          sealFolder === undefined
            ? orphans.files
            : orphans.files.filter((path) => !path.startsWith(`${sealFolder}/`)),
        touched: [],
      };
      if (put.length === 0 && orphans.files.length === 0 && orphans.emptyDirs.length === 0) {
        discardStaging(root, (pid) => pid === process.pid);
        return report;
      }
      report.touched = [...foldersOf([...put, ...orphans.files, ...orphans.emptyDirs])].sort();
      const putDirs = new Set<string>();
      const putFiles: string[] = [];
      for (const path of put) {
        const area = path.slice(0, Math.max(0, path.indexOf('/')));
        if (area !== '' && !exists(area)) putDirs.add(area);
        else putFiles.push(path);
      }
      const journal: Journal = {
        staging: id,
        pid: process.pid,
        putDirs: [...putDirs].sort(),
        put: putFiles,
        remove: orphans.files,
        removeDirs: orphans.emptyDirs,
      };
      // Commands reading the output (validate, docs, publish) finish before anything in it moves.
      await waitForReaders(root, options.onReaders);
      crashPoint('before-commit');
      const temporary = join(root, `${JOURNAL_FILE}.tmp`);
      writeDurably(temporary, `${JSON.stringify(journal)}\n`);
      renameSync(temporary, join(root, JOURNAL_FILE));
      syncDir(root);
      crashPoint('after-commit');
      applyJournal(root, journal);
      return report;
    },
    abort,
  };
}

/**
 * Brings an output root left by an interrupted build to a consistent state: rolls a committed build
 * forward, deletes an uncommitted one's staging folder. Cheap when there is nothing to do (two stats).
 * Returns what it did. A build still running in another live process is left alone.
 */
export function recoverOutput(root: string): 'clean' | 'rolled-forward' | 'rolled-back' {
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return 'clean';
  clearLeftoverLock(root);
  const text = readIfExists(join(root, JOURNAL_FILE));
  if (text !== undefined) {
    let journal: Journal;
    try {
      journal = JSON.parse(text) as Journal;
    } catch {
      // Cannot happen through the commit rename; a damaged journal is dropped rather than half applied.
      rmSync(join(root, JOURNAL_FILE), { force: true });
      rmSync(join(root, STAGING_DIR), { recursive: true, force: true });
      return 'rolled-back';
    }
    if (journal.pid !== process.pid && isAlive(journal.pid)) return 'clean';
    applyJournal(root, journal);
    return 'rolled-forward';
  }
  rmSync(join(root, `${JOURNAL_FILE}.tmp`), { force: true });
  return discardStaging(root, (pid) => pid === process.pid || !isAlive(pid)) ? 'rolled-back' : 'clean';
}

/**
 * Runs `work`, which reads the output `root`, as a reader (see `lockForReading`): after any build
 * writing it has committed, with the output recovered first, and with no build committing meanwhile.
 */
export function whileReadingOutput<T>(
  root: string,
  work: () => Promise<T> | T,
  onWait?: (pid: number) => void,
): Promise<T> {
  return whileReading(
    root,
    () => {
      try {
        recoverOutput(root);
      } catch {
        // An output this user may not write (a read-only install) cannot be recovered, only read.
      }
      return work();
    },
    onWait,
  );
}

/** Deletes the staging folders of the builds `owned` picks (by process id), and the staging root once empty. */
function discardStaging(root: string, owned: (pid: number) => boolean): boolean {
  const stagingRoot = join(root, STAGING_DIR);
  let ids: string[];
  try {
    ids = readdirSync(stagingRoot);
  } catch {
    return false;
  }
  const mine = ids.filter((id) => owned(Number(id.split('-')[0])));
  for (const id of mine) rmSync(join(stagingRoot, id), { recursive: true, force: true });
  if (mine.length === ids.length) rmSync(stagingRoot, { recursive: true, force: true });
  return mine.length > 0;
}

/**
 * Stages the build state, made from the stats the files will have once moved in; its path if it changed.
 * One synchronous pass: the stats of staged and kept files are known, only the files found unchanged
 * in the output are stat'ed. A state the build knows `changed` (or whose files changed, `filesChanged`:
 * a staged file has a new time) is not compared with the one in the output.
 */
function stageSeal(
  root: string,
  staging: string,
  paths: ReadonlySet<string>,
  staged: ReadonlyMap<string, { size: number; mtimeMs: number }>,
  known: ReadonlyMap<string, { size: number; mtimeMs: number }>,
  keptBelow: ReadonlySet<string>,
  filesChanged: boolean,
  seal: NonNullable<CommitOptions['seal']>,
): { staged: string[]; names: Set<string> } {
  // In the order produced (the seal sorts each folder's files), in a map: as keys of one object, the
  // 56,000 paths of a 10,000-event build took twice as long to add.
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
  // The output's files of the seal's folders, listed once: a first build of 684 groups tried to read
  // as many files that were not there.
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
function settleAreas(
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

/** Moves the staged folders and files in, removes what the journal lists, then deletes journal and staging. */
function applyJournal(root: string, journal: Journal): void {
  const staging = join(root, STAGING_DIR, journal.staging);
  const dirs = journal.putDirs ?? [];
  const half = Math.ceil((dirs.length + journal.put.length) / 2);
  const made = new Set<string>();
  const moveFile = (path: string) => {
    const target = join(root, path);
    try {
      renameSync(join(staging, path), target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // Either moved in already by an earlier, interrupted apply, or its folder does not exist yet.
      if (!existsSync(join(staging, path))) return;
      if (!made.has(dirname(target))) mkdirSync(dirname(target), { recursive: true });
      made.add(dirname(target));
      renameSync(join(staging, path), target);
    }
  };
  dirs.forEach((dir, index) => {
    if (index === half) crashPoint('apply-half');
    try {
      renameSync(join(staging, dir), join(root, dir));
    } catch (error) {
      // Moved in already by an earlier, interrupted apply: nothing left to move.
      if (!existsSync(join(staging, dir))) return;
      // The folder appeared in the output since (not eventry's doing): its files go in one by one.
      if (!existsSync(join(root, dir))) throw error;
      for (const path of filesBelow(staging, dir)) moveFile(path);
    }
  });
  journal.put.forEach((path, index) => {
    if (dirs.length + index === half) crashPoint('apply-half');
    moveFile(path);
  });
  for (const path of journal.remove) rmSync(join(root, path), { force: true });
  for (const dir of journal.removeDirs) {
    try {
      rmdirSync(join(root, dir));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  }
  crashPoint('before-cleanup');
  rmSync(join(root, JOURNAL_FILE), { force: true });
  rmSync(staging, { recursive: true, force: true });
  discardStaging(root, (pid) => pid === process.pid || !isAlive(pid));
}

/**
 * Writes the files below `dir`, a few at a time (the commit makes them durable, `makeDurable`); each
 * folder is made once (`mkdirs`, shared by the build's batches), and each file's size and time go to
 * `stats`.
 */
async function stageFiles(
  dir: string,
  files: readonly OutputFile[],
  mkdirs: Map<string, Promise<unknown>>,
  stats?: Map<string, { size: number; mtimeMs: number }>,
): Promise<void> {
  const half = Math.ceil(files.length / 2);
  let next = 0;
  let done = 0;
  let failed = false;
  const folder = (path: string) => {
    let made = mkdirs.get(path);
    if (!made) {
      made = mkdir(path, { recursive: true });
      mkdirs.set(path, made);
    }
    return made;
  };
  const worker = async () => {
    while (!failed && next < files.length) {
      const file = files[next++]!;
      const target = join(dir, file.path);
      await folder(dirname(target));
      const handle = await open(target, 'w');
      try {
        if (file.pieces) await handle.writev(file.pieces as Uint8Array[]);
        else await handle.writeFile(file.contents);
        if (stats) {
          const { size, mtimeMs } = await handle.stat();
          stats.set(file.path, { size, mtimeMs });
        }
      } finally {
        await handle.close();
      }
      if (++done === half) crashPoint('staging-half');
    }
  };
  const outcomes = await Promise.allSettled(
    Array.from({ length: Math.min(16, files.length) }, () =>
      worker().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    ),
  );
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
}

/**
 * Writes files in place, each through a temporary sibling and a rename so a reader never sees half a
 * file; unchanged files are not touched. For single hand-kept files (`eventry version`); a build goes
 * through `commitOutputs`.
 */
export function writeOutputs(root: string, files: readonly OutputFile[]): WriteReport {
  const report: WriteReport = { written: [], unchanged: 0, removed: [], touched: [] };
  for (const file of files) {
    const target = join(root, file.path);
    if (readIfExists(target) === file.contents) {
      report.unchanged++;
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, target);
    report.written.push(file.path);
  }
  return report;
}

/**
 * Whether the output holds `file` already: by what the emitter found when it read the output, else by
 * reading it back (a file of a folder that does not exist is not read); with the size and time of the
 * file when it was read.
 */
function inOutput(
  root: string,
  file: OutputFile,
  exists: (dir: string) => boolean,
): boolean | { size: number; mtimeMs: number } {
  if (file.inOutput !== undefined) return file.inOutput === 'same';
  if (!exists(folderOf(file.path))) return false;
  return unchangedTarget(inside(root, file.path), file) ?? false;
}

/**
 * The size and time of the output file at `path` when it holds exactly `file`'s bytes; undefined when
 * it differs or is absent. One open for both (a file of another size is not read); a folder in its
 * place fails like reading it (EISDIR, with the path).
 */
function unchangedTarget(path: string, file: OutputFile): { size: number; mtimeMs: number } | undefined {
  const fd = openForReading(path);
  if (fd === undefined) return undefined;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return readTarget(path, readIfExists) === file.contents ? stat : undefined;
    const size = file.pieces
      ? file.pieces.reduce((sum, piece) => sum + piece.length, 0)
      : Buffer.byteLength(file.contents);
    if (stat.size !== size) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    for (let got = -1; read < stat.size && got !== 0; read += got) {
      got = readSync(fd, bytes, read, stat.size - read, read);
    }
    if (read !== stat.size || !holds(bytes, file)) return undefined;
    return { size: stat.size, mtimeMs: stat.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Whether `bytes` are exactly `file`'s (its text, or its pieces one after another). */
function holds(bytes: Buffer, file: OutputFile): boolean {
  if (!file.pieces) return bytes.toString('utf8') === file.contents;
  let at = 0;
  for (const piece of file.pieces) {
    const end = at + piece.length;
    if (end > bytes.length || !bytes.subarray(at, end).equals(piece)) return false;
    at = end;
  }
  return at === bytes.length;
}

/** An output file's text or bytes (undefined when absent); an error always names the path (EISDIR does not by itself). */
function readTarget<T>(path: string, read: (path: string) => T): T {
  try {
    return read(path);
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    if (typeof failure.code === 'string' && failure.path === undefined) failure.path = path;
    throw failure;
  }
}

/**
 * Stages `files` below `target.staging` from a build thread: each file that differs from the output is
 * written (synchronously; the build's own thread fsyncs it, see `Staging.addStaged`) and reported with
 * its size and time, each unchanged one is reported without. `state` carries the folders made and
 * seen between calls. A file the file system refuses throws a `WriteFailure`; the caller discards the
 * staging folder.
 */
export function stageOnThread(
  target: StagingTarget,
  files: readonly OutputFile[],
  state: { exists?: (dir: string) => boolean; made?: Set<string> },
): StagedFile[] {
  state.exists ??= folderMemo(target.root);
  state.made ??= new Set<string>();
  const { exists, made } = state;
  const half = Math.ceil(files.length / 2);
  let path = '';
  try {
    return files.map((file, index) => {
      path = inside(target.root, file.path);
      if (file.sunk) {
        const stats = settleSunk(target, file, exists);
        return stats ? { path: file.path, stats } : { path: file.path };
      }
      const dir = folderOf(file.path);
      if (inOutput(target.root, file, exists) !== false) return { path: file.path };
      path = inside(target.staging, file.path);
      if (!made.has(dir)) mkdirSync(inside(target.staging, dir), { recursive: true });
      made.add(dir);
      const fd = openSync(path, 'w');
      try {
        if (file.pieces) writevSync(fd, file.pieces as Uint8Array[]);
        else writeSync(fd, file.contents);
        const { size, mtimeMs } = fstatSync(fd);
        if (index + 1 === half) crashPoint('staging-half');
        return { path: file.path, stats: { size, mtimeMs } };
      } finally {
        closeSync(fd);
      }
    });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    if (typeof failure.code !== 'string') throw error;
    throw new WriteFailure(outputPath(failure.path ?? path, target), failure.code, error);
  }
}

/**
 * A file of the staging folder an emitter writes piece by piece (`EmitContext.openSink`): made empty
 * now, each piece appended as it comes, through one descriptor until `close`. A failure names the
 * output path, as staging a file does.
 */
export function openStagedSink(target: StagingTarget, path: string): OutputSink {
  const file = join(target.staging, path);
  const guarded = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      if (typeof failure.code !== 'string') throw error;
      throw new WriteFailure(outputPath(failure.path ?? file, target), failure.code, error);
    }
  };
  let fd: number | undefined = guarded(() => {
    mkdirSync(dirname(file), { recursive: true });
    return openSync(file, 'w');
  });
  // Where the next bytes go: the end of what is written (after a `truncate`, its new end).
  let position = 0;
  // Where the last flush to disk was started (see `FLUSH_EVERY_BYTES`).
  let flushedAt = 0;
  const current = (): number => {
    if (fd === undefined) throw new Error(`eventry: ${path} is written after its sink was closed`);
    return fd;
  };
  return {
    write: (bytes) =>
      guarded(() => {
        const at = current();
        for (let done = 0; done < bytes.length; ) {
          done += writeSync(at, bytes, done, bytes.length - done, position + done);
        }
        position += bytes.length;
        if (process.platform === 'linux' && position - flushedAt >= FLUSH_EVERY_BYTES) {
          flushedAt = position;
          flushInBackground(file);
        }
      }),
    truncate: (length) =>
      guarded(() => {
        ftruncateSync(current(), length);
        position = length;
      }),
    read: () => guarded(() => readFileSync(file)),
    close: () => {
      if (fd === undefined) return undefined;
      const closing = fd;
      fd = undefined;
      return guarded(() => {
        try {
          return fileStamp(closing);
        } finally {
          closeSync(closing);
        }
      });
    },
  };
}

/**
 * A file an emitter wrote into the staging folder (`sunk`): its size and time, or undefined when the
 * output holds the same bytes (the staged copy is then removed).
 */
function settleSunk(
  target: StagingTarget,
  file: OutputFile,
  exists: (dir: string) => boolean,
): { size: number; mtimeMs: number } | undefined {
  const staged = join(target.staging, file.path);
  let same = file.inOutput === 'same';
  if (file.inOutput === undefined && exists(folderOf(file.path))) {
    const current = readTarget(join(target.root, file.path), readBytesIfExists);
    same = current?.equals(readFileSync(staged)) === true;
  }
  if (same) {
    rmSync(staged);
    return undefined;
  }
  const { size, mtimeMs } = statSync(staged);
  return { size, mtimeMs };
}

/**
 * Whether each folder of the output existed when first asked (by its path relative to `root`, '' for
 * the root): a file of a folder that does not exist is staged without reading it back, and a
 * top-level folder that does not exist is moved in whole.
 */
function folderMemo(root: string): (dir: string) => boolean {
  const existing = new Map<string, boolean>();
  return (dir) => {
    let found = existing.get(dir);
    if (found === undefined) {
      found = statSync(join(root, dir), { throwIfNoEntry: false }) !== undefined;
      existing.set(dir, found);
    }
    return found;
  };
}

/** Runs at most `size` jobs at once; `done` settles once every job so far has, rejecting with the first failure. */
function limiter(size: number): { run(job: () => Promise<void>): void; done(): Promise<void> } {
  const waiting: (() => Promise<void>)[] = [];
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const start = () => {
    while (running.size < size && waiting.length > 0) {
      const job = waiting.shift()!()
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => {
          running.delete(job);
          start();
        });
      running.add(job);
    }
  };
  return {
    run(job) {
      waiting.push(job);
      start();
    },
    async done() {
      while (running.size > 0) await Promise.all(running);
      if (failure) throw failure.error;
    },
  };
}

/**
 * A sink starts writing its file to disk in the background each time this much more was written to it:
 * the catalogue documents (63 MB at 10,000 events) are made in one go on the build's thread, and their
 * flush, started only once they were staged, then held the rest of an edit back (staging one file of
 * the edited group waited 80 ms for the file system's journal; 35 ms now).
 */
const FLUSH_EVERY_BYTES = 8 * 2 ** 20;

/**
 * An `fdatasync` of `file` on the thread pool, through a descriptor of its own: it starts at once, while
 * the writer goes on, and the descriptor is closed when it is done (the writer's may be closed first).
 * Failures are the final sync's to report (`makeDurable`, `earlyFlush`): this one only saves it time.
 */
function flushInBackground(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return;
  }
  fdatasync(fd, () => close(fd, () => {}));
}

/** From this many staged files, one sync of the file system is cheaper than an fsync of each. */
const BULK_SYNC_MIN = 64;

/**
 * Makes the staged files durable before the commit point. Many files: one `syncfs` of the file system
 * that holds them (coreutils' `sync -f`, Linux): at 56,000 files the fsyncs, 0.4 to 1.6 ms each on this
 * disk even 16 at a time, were most of a 10,000-event build's disk time, and they held the writers
 * back. Few files, another system, or a `sync` that fails: an fsync of each, a few at a time.
 */
async function makeDurable(staging: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  if (paths.length >= BULK_SYNC_MIN && (await fileSystemSyncer().sync(staging))) return;
  const syncs = limiter(16);
  for (const path of paths) syncs.run(() => syncFile(join(staging, path)));
  await syncs.done();
}

/**
 * Staged bytes or files after which a build starts writing them to disk while it goes on (`earlyFlush`):
 * a file costs the disk its inode and folder entry besides its bytes (10,000 events: 56,000 files of
 * about 100 MB in all).
 */
const EARLY_FLUSH_BYTES = 32 * 2 ** 20;
const EARLY_FLUSH_FILES = 4096;
/** A staged file this large is written to disk as soon as it is staged (`earlyFlush`). */
const EARLY_SYNC_FILE_BYTES = 4 * 2 ** 20;

/**
 * Starts a `syncfs` of the staging folder's file system in the background each time another
 * `EARLY_FLUSH_BYTES` or `EARLY_FLUSH_FILES` were staged (one at a time, Linux, bulk builds only): the
 * kernel holds written data in memory for up to 30 s, so a 10,000-event build flushed all its files in
 * the final sync, 1.2 s with nothing else to do, while the disk idled as the build computed. The final
 * sync (`makeDurable`) still runs and is what makes the commit durable: a flush that fails costs time only.
 * Large files are flushed one by one as soon as staged (`large`), whatever the build.
 */
function earlyFlush(staging: string): {
  staged(bytes: number, files: number): void;
  /**
   * A staged file of `bytes`: one of at least `EARLY_SYNC_FILE_BYTES` (a catalogue document, 25 MB at
   * 10,000 events) is written to disk in the background at once, while the build goes on (an edit
   * otherwise waited 70 ms at its commit for the documents' 63 MB).
   */
  large(path: string, bytes: number): void;
  settled(): Promise<void>;
} {
  let bytesSince = 0;
  let filesSince = 0;
  let running: Promise<void> | undefined;
  const files: Promise<void>[] = [];
  return {
    large(path, bytes) {
      if (bytes < EARLY_SYNC_FILE_BYTES) return;
      files.push(syncFile(join(staging, path)).catch(() => undefined));
    },
    staged(bytes, files) {
      bytesSince += bytes;
      filesSince += 1;
      // Off Linux the syncer answers false at once (`FileSystemSyncer.sync`): no flush, as before.
      if (running || files < BULK_SYNC_MIN) return;
      if (bytesSince < EARLY_FLUSH_BYTES && filesSince < EARLY_FLUSH_FILES) return;
      bytesSince = 0;
      filesSince = 0;
      running = fileSystemSyncer()
        .sync(staging)
        .then(() => {
          running = undefined;
        });
    },
    settled: async () => {
      await Promise.all(files);
      await running;
    },
  };
}

/** Makes a file written by another thread durable (Windows flushes only a handle opened for writing). */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A path the file system named in an error, as the output path it stands for (`/`-separated) if it is one. */
function outputPath(path: string, { root, staging }: StagingTarget): string {
  const folder = [staging, root].find((dir) => path.startsWith(`${dir}${sep}`));
  return folder
    ? path
        .slice(folder.length + 1)
        .split(sep)
        .join('/')
    : path;
}

/** The folder of an output path, relative to the root ('' at the root). */
function folderOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')));
}

/** The files below `dir` of `base`, as paths relative to `base` with forward slashes. */
function filesBelow(base: string, dir: string): string[] {
  return readdirSync(join(base, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(base, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

function writeDurably(path: string, contents: string): void {
  const fd = openSync(path, 'w');
  try {
    writeFileSync(fd, contents);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a rename in `dir` durable; not every platform can open a folder, and then there is nothing to do. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot fsync a directory; its renames are journaled by NTFS.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function crashPoint(phase: string): void {
  if (process.env.EVENTRY_TEST_CRASH_AT === phase) process.kill(process.pid, 'SIGKILL');
}
