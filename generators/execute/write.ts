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
import { mkdirSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readIfExists } from '../shared/fs.js';
import {
  type CommitOptions,
  type FileStats,
  type StagedFile,
  type StagingTarget,
  WriteFailure,
  type WriteReport,
  type WriterFile,
} from './commit-types.js';
import { crashPoint, earlyFlush, makeDurable, syncDir, writeDurably } from './durable.js';
import { waitForReaders } from './lock.js';
import { folderMemo, inOutput, outputPath, settleSunk } from './output-compare.js';
import {
  applyJournal,
  discardStaging,
  JOURNAL_FILE,
  type Journal,
  recoverOutput,
  STAGING_DIR,
} from './recover.js';
import { settleAreas, stageSeal } from './seal.js';
import { areasOf, findOrphans, foldersOf, ownedAreas } from './sweep.js';

/**
 * Makes the output root hold exactly `files` (plus hand-kept files), atomically as seen by any later
 * eventry command: see the comment at the top of this file.
 */
export async function commitOutputs(
  root: string,
  files: readonly WriterFile[],
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
  add(files: readonly WriterFile[]): Promise<void>;
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
 * Writes the files below `dir`, a few at a time (the commit makes them durable, `makeDurable`); each
 * folder is made once (`mkdirs`, shared by the build's batches), and each file's size and time go to
 * `stats`.
 */
async function stageFiles(
  dir: string,
  files: readonly WriterFile[],
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
export function writeOutputs(root: string, files: readonly WriterFile[]): WriteReport {
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

export {
  type CommitOptions,
  type FileStat,
  type FileStats,
  type SealedFile,
  type StagedFile,
  type StagingTarget,
  WriteFailure,
  type WriteReport,
  type WriterFile,
} from './commit-types.js';
export { JOURNAL_FILE, recoverOutput, STAGING_DIR, whileReadingOutput } from './recover.js';
