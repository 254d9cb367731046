import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The file that says a build is writing an output folder, at its root: the process id of that build.
 * Two builds of one output at once would each decide what to write, keep and sweep from the output as
 * they found it, and the second commit would undo part of the first; so a build waits for the other.
 */
export const LOCK_FILE = '.eventry-lock';

/**
 * A lock this old is taken for a leftover whatever its process id says: a build, even of a large
 * catalogue, takes seconds, and an id can be reused by an unrelated process after a crash.
 */
const STALE_LOCK_MS = 60 * 60 * 1000;
/** A lock file without a process id younger than this is being written, not left over. */
const JUST_MADE_MS = 10_000;
/** How often a waiting build looks again. */
const POLL_MS = 100;

/** A held lock on an output folder. */
export interface OutputLock {
  /** Removes the lock, and the output folder when the lock created it and it is left empty. */
  release(): void;
}

/**
 * Takes the lock of the output folder `root` (made if missing), waiting while another live build holds
 * it (`onWait` is told once, with that build's process id). A lock whose process is gone, or older
 * than an hour, is a leftover and is taken over. Two builds that find the same leftover at the same
 * moment can both take it (the check and the removal are two steps); that needs a crashed build and
 * two new ones started within milliseconds of each other. An error creating the folder or the file
 * (permissions, a file in the way) is thrown as the file system's.
 */
export async function lockOutput(root: string, onWait: (pid: number) => void): Promise<OutputLock> {
  let created = !statSync(root, { throwIfNoEntry: false });
  mkdirSync(root, { recursive: true });
  const path = join(root, LOCK_FILE);
  let told = false;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      const made = created;
      return { release: () => release(root, path, made) };
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      // The holder made the folder and removed it on release: make it again (and so remove it too).
      if (code === 'ENOENT') {
        mkdirSync(root, { recursive: true });
        created = true;
        continue;
      }
      if (code !== 'EEXIST') throw error;
    }
    const holder = lockHolder(path);
    if (holder === undefined) {
      rmSync(path, { force: true });
      continue;
    }
    if (!told) {
      onWait(holder);
      told = true;
    }
    await sleep(POLL_MS);
  }
}

/** Removes the lock of `root` when a build that died left it (see `lockOutput` for what counts). */
export function clearLeftoverLock(root: string): void {
  const path = join(root, LOCK_FILE);
  if (lockHolder(path) === undefined) rmSync(path, { force: true });
}

/** The process id of a live holder of the lock at `path`; undefined when it is a leftover or gone. */
function lockHolder(path: string): number | undefined {
  try {
    const stats = statSync(path);
    const age = Date.now() - stats.mtimeMs;
    const pid = Number(readFileSync(path, 'utf8').trim());
    // No id yet: its build made the file a moment ago and is writing its id (0: not known yet).
    if (!Number.isInteger(pid) || pid <= 0) return age < JUST_MADE_MS ? 0 : undefined;
    if (age > STALE_LOCK_MS || !isAlive(pid)) return undefined;
    return pid;
  } catch {
    // Released between the two looks: try again.
    return undefined;
  }
}

function release(root: string, path: string, created: boolean): void {
  rmSync(path, { force: true });
  if (!created) return;
  try {
    rmdirSync(root);
  } catch {
    // Not empty: the build wrote its output there.
  }
}

/**
 * The folder at the output's root where each command reading the output (`validate`, `docs`,
 * `publish`) leaves a file named by its process id while it reads: a build commits only when none is
 * left (`waitForReaders`), and a reader starts only while no build holds the lock. Each side announces
 * itself before it looks for the other, so at least one of two that start together sees the other; the
 * reader then steps back.
 */
export const READERS_DIR = '.eventry-readers';

/** A reader's hold on an output folder. */
export interface ReadLock {
  release(): void;
}

/**
 * Waits until no live build holds the lock of `root`, then registers as a reader (`onWait` is told
 * once, with the build's process id). A folder that does not exist, or where this process may not
 * write, is read without a registration: no build of this user can be writing it.
 */
async function lockForReading(root: string, onWait?: (pid: number) => void): Promise<ReadLock> {
  const lock = join(root, LOCK_FILE);
  const dir = join(root, READERS_DIR);
  const file = join(dir, `${process.pid}-${randomBytes(4).toString('hex')}`);
  let told = false;
  for (;;) {
    const holder = lockHolder(lock);
    if (holder === undefined) {
      if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return { release: () => {} };
      if (!register(dir, file)) return { release: () => {} };
      if (lockHolder(lock) === undefined) return { release: () => unregister(dir, file) };
      // A build took the lock meanwhile: it goes first.
      unregister(dir, file);
    } else if (!told && onWait) {
      onWait(holder);
      told = true;
    }
    await sleep(POLL_MS);
  }
}

/** Runs `work` holding a read lock on `root` (see `lockForReading`). */
export async function whileReading<T>(
  root: string,
  work: () => Promise<T> | T,
  onWait?: (pid: number) => void,
): Promise<T> {
  const held = await lockForReading(root, onWait);
  try {
    return await work();
  } finally {
    held.release();
  }
}

/**
 * Waits while commands registered as readers of `root` still run (a reader whose process is gone
 * left its file behind: removed). Called by a build holding the lock, just before its commit.
 */
export async function waitForReaders(root: string, onWait?: (readers: number) => void): Promise<void> {
  const dir = join(root, READERS_DIR);
  let told = false;
  for (;;) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    let live = 0;
    for (const name of names) {
      const pid = Number(name.split('-')[0]);
      if (pid !== process.pid && isAlive(pid)) live++;
      else if (pid !== process.pid) rmSync(join(dir, name), { force: true });
    }
    if (live === 0) {
      removeIfEmpty(dir);
      return;
    }
    if (!told) onWait?.(live);
    told = true;
    await sleep(POLL_MS);
  }
}

/** Creates the reader's file; false when the folder cannot be written (a read-only install). */
function register(dir: string, file: string): boolean {
  // Another reader may remove the empty folder between the two steps: make it again.
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      mkdirSync(dir, { recursive: true });
      closeSync(openSync(file, 'wx'));
      return true;
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      if (code !== 'ENOENT') return false;
    }
  }
  return false;
}

function unregister(dir: string, file: string): void {
  rmSync(file, { force: true });
  removeIfEmpty(dir);
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Another reader is in it, or it is gone already.
  }
}

/** Whether process `pid` runs (`EPERM`: it does, as another user's). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
