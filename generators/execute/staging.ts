import { randomBytes } from 'node:crypto';
import { renameSync, rmdirSync, statSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  type CommitOptions,
  type FileStat,
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

// One build's transaction (the writer's staging, `write.ts` tells the whole protocol): files staged
// batch by batch, the seal, the sweep, and the journal whose rename is the commit point.

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
  return new BuildStaging(root);
}

/** The sweep's outcome and the report it gives, once the staged files are durable. */
interface Swept {
  report: WriteReport;
  orphans: { files: string[]; emptyDirs: string[] };
}

/** `Staging` over one staging folder `<root>/.eventry-staging/<id>/`. */
class BuildStaging implements Staging {
  readonly target: StagingTarget;
  private readonly id = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly rootExisted: boolean;
  private readonly produced = new Set<string>();
  private readonly put: string[] = [];
  private readonly known = new Map<string, FileStat>();
  // The folders kept whole below their top (`keepBelow`), and how many files that is.
  private readonly keptAreas = new Set<string>();
  private keptBelowCount = 0;
  // The size and time of each staged file, taken from its open handle: a rename keeps them.
  private readonly stagedStats = new Map<string, FileStat>();
  private readonly mkdirs = new Map<string, Promise<unknown>>();
  // Whether each output folder existed when the build started looking: no file of a folder that does
  // not exist is read back, and a top-level folder that does not exist is moved in whole.
  private readonly exists: (dir: string) => boolean;
  // Every staged file, made durable at once before the commit (`makeDurable`).
  private readonly unsynced: string[] = [];
  private readonly early: ReturnType<typeof earlyFlush>;

  constructor(private readonly root: string) {
    recoverOutput(root);
    this.rootExisted = statSync(root, { throwIfNoEntry: false }) !== undefined;
    this.target = { root, staging: join(root, STAGING_DIR, this.id) };
    this.exists = folderMemo(root);
    this.early = earlyFlush(this.target.staging);
  }

  async add(files: readonly WriterFile[]): Promise<void> {
    try {
      for (const file of files) this.produced.add(file.path);
      // Inside the try: reading a target whose name the file system rejects fails like writing it.
      for (const file of files) if (file.sunk) this.settleSunkFile(file);
      // A file found unchanged keeps the stats it was read with: the seal needs no stat of it.
      const changed = files.filter((file) => {
        if (file.sunk) return false;
        const same = inOutput(this.root, file, this.exists);
        if (typeof same === 'object') this.known.set(file.path, same);
        return same === false;
      });
      this.put.push(...changed.map((file) => file.path));
      this.unsynced.push(...changed.map((file) => file.path));
      await stageFiles(this.target.staging, changed, this.mkdirs, this.stagedStats);
      for (const file of changed)
        this.early.staged(this.stagedStats.get(file.path)?.size ?? 0, this.unsynced.length);
    } catch (error) {
      this.failing(error);
    }
  }

  addStaged(files: readonly StagedFile[]): void {
    for (const file of files) {
      this.produced.add(file.path);
      if (!file.stats) continue;
      this.put.push(file.path);
      this.unsynced.push(file.path);
      this.stagedStats.set(file.path, file.stats);
      this.early.staged(file.stats.size, this.unsynced.length);
    }
  }

  keep(paths: readonly string[], stats?: FileStats): void {
    for (const path of paths) {
      this.produced.add(path);
      const stat = stats?.[path];
      if (stat) this.known.set(path, stat);
    }
  }

  keepBelow(area: string, count: number): void {
    this.keptAreas.add(area);
    this.keptBelowCount += count;
  }

  async commit(options: CommitOptions = {}): Promise<WriteReport> {
    const written = [...this.put].sort();
    const sealNames = await this.sealAndSync(options);
    const { report, orphans } = this.sweep(options, written, sealNames);
    if (this.put.length === 0 && orphans.files.length === 0 && orphans.emptyDirs.length === 0) {
      discardStaging(this.root, (pid) => pid === process.pid);
      return report;
    }
    report.touched = [...foldersOf([...this.put, ...orphans.files, ...orphans.emptyDirs])].sort();
    await this.commitJournal(orphans, options);
    return report;
  }

  abort(): void {
    discardStaging(this.root, (pid) => pid === process.pid);
    if (!this.rootExisted) {
      try {
        rmdirSync(this.root);
      } catch {
        // Not empty (someone else's file) or already gone: left as it is.
      }
    }
  }

  /** A file the fast executor wrote into the staging folder itself: recorded, unless the output holds it. */
  private settleSunkFile(file: WriterFile): void {
    const stats = settleSunk(this.target, file, this.exists);
    if (!stats) return;
    this.put.push(file.path);
    this.unsynced.push(file.path);
    this.stagedStats.set(file.path, stats);
    this.early.large(file.path, stats.size);
  }

  /** Settles the kept folders, stages the seal, makes every staged file durable; the seal's file names. */
  private async sealAndSync(options: CommitOptions): Promise<ReadonlySet<string>> {
    const { settle, seal } = options;
    if (settle)
      this.keptBelowCount += settleAreas(settle, this.produced, this.put, this.known, this.keptAreas);
    // The files in `options.sealFolder` the seal names: kept there, the others removed.
    let sealNames: ReadonlySet<string> = new Set();
    try {
      if (seal) {
        const { root, staging } = this.target;
        const filesChanged = this.put.length > 0;
        const { produced, stagedStats, known, keptAreas } = this;
        const sealed = stageSeal(root, staging, produced, stagedStats, known, keptAreas, filesChanged, seal);
        this.put.push(...sealed.staged);
        this.unsynced.push(...sealed.staged);
        sealNames = sealed.names;
      }
      await this.early.settled();
      await makeDurable(this.target.staging, this.unsynced);
    } catch (error) {
      this.failing(error);
    }
    return sealNames;
  }

  /** What the commit removes (the sweep of the owned folders), and the report of the whole commit. */
  private sweep(options: CommitOptions, written: string[], sealNames: ReadonlySet<string>): Swept {
    const { root, produced, keptAreas } = this;
    const generated = areasOf(produced);
    const areas = ownedAreas(root, generated, keptAreas, options.previousAreas ?? []);
    const swept = new Set([...areas].filter((area) => !keptAreas.has(area)));
    const sealFolder = options.seal ? options.sealFolder : undefined;
    if (sealFolder !== undefined) swept.add(sealFolder);
    const kept = { has: (path: string) => produced.has(path) || sealNames.has(path) };
    const owned = ownedAreas(root, generated, keptAreas);
    const orphans = findOrphans(root, kept, swept, owned, options.previousFiles);
    const report: WriteReport = {
      written,
      unchanged: produced.size + this.keptBelowCount - written.length,
      // The seal's own files are the build's bookkeeping, not its output.
      removed:
        sealFolder === undefined
          ? orphans.files
          : orphans.files.filter((path) => !path.startsWith(`${sealFolder}/`)),
      touched: [],
    };
    return { report, orphans };
  }

  /** Writes the journal (the commit point) once no reader is left, and applies it. */
  private async commitJournal(orphans: Swept['orphans'], options: CommitOptions): Promise<void> {
    const { root } = this;
    const putDirs = new Set<string>();
    const putFiles: string[] = [];
    for (const path of this.put) {
      const area = path.slice(0, Math.max(0, path.indexOf('/')));
      if (area !== '' && !this.exists(area)) putDirs.add(area);
      else putFiles.push(path);
    }
    const journal: Journal = {
      staging: this.id,
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
  }

  private failing(error: unknown): never {
    this.abort();
    const { code, path } = error as NodeJS.ErrnoException;
    if (typeof code !== 'string' || typeof path !== 'string') throw error;
    throw new WriteFailure(outputPath(path, this.target), code, error);
  }
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
