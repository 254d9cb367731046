import { close, closeSync, fdatasync, fsyncSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileSystemSyncer } from './file-system-sync.js';

// Making staged files durable before a commit: background flushes, one bulk sync, fsyncs. (split from write.ts, the writer).

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
 * a large document's flush, started only once staged, held the rest of an edit back (see docs/decisions/0002).
 */
export const FLUSH_EVERY_BYTES = 8 * 2 ** 20;

/**
 * An `fdatasync` of `file` on the thread pool, through a descriptor of its own: it starts at once, while
 * the writer goes on, and the descriptor is closed when it is done (the writer's may be closed first).
 * Failures are the final sync's to report (`makeDurable`, `earlyFlush`): this one only saves it time.
 */
export function flushInBackground(file: string): void {
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
 * that holds them (coreutils' `sync -f`, Linux), as an fsync each was most of a large build's disk time
 * (see docs/decisions/0002). Few files, another system, or a `sync` that fails: an fsync of each, a few
 * at a time.
 */
export async function makeDurable(staging: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  if (paths.length >= BULK_SYNC_MIN && (await fileSystemSyncer().sync(staging))) return;
  const syncs = limiter(16);
  for (const path of paths) syncs.run(() => syncFile(join(staging, path)));
  await syncs.done();
}

/**
 * Staged bytes or files after which a build starts writing them to disk while it goes on (`earlyFlush`):
 * a file costs the disk its inode and folder entry besides its bytes.
 */
const EARLY_FLUSH_BYTES = 32 * 2 ** 20;

const EARLY_FLUSH_FILES = 4096;

/** A staged file this large is written to disk as soon as it is staged (`earlyFlush`). */
const EARLY_SYNC_FILE_BYTES = 4 * 2 ** 20;

/**
 * Starts a `syncfs` of the staging folder's file system in the background each time another
 * `EARLY_FLUSH_BYTES` or `EARLY_FLUSH_FILES` were staged (one at a time, Linux, bulk builds only): the
 * kernel holds written data back, so the disk idled while the build computed and the final sync did it
 * all (see docs/decisions/0002). The final
 * sync (`makeDurable`) still runs and is what makes the commit durable: a flush that fails costs time only.
 * Large files are flushed one by one as soon as staged (`large`), whatever the build.
 */
export function earlyFlush(staging: string): {
  staged(bytes: number, files: number): void;
  /**
   * A staged file of `bytes`: one of at least `EARLY_SYNC_FILE_BYTES` (a catalogue document) is written
   * to disk in the background at once, while the build goes on, not at its commit.
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

/** The files below `dir` of `base`, as paths relative to `base` with forward slashes. */
export function filesBelow(base: string, dir: string): string[] {
  return readdirSync(join(base, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(base, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

export function writeDurably(path: string, contents: string): void {
  const fd = openSync(path, 'w');
  try {
    writeFileSync(fd, contents);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes a rename in `dir` durable; not every platform can open a folder, and then there is nothing to do. */
export function syncDir(dir: string): void {
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

export function crashPoint(phase: string): void {
  if (process.env.EVENTRY_TEST_CRASH_AT === phase) process.kill(process.pid, 'SIGKILL');
}
