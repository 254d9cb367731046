import {
  closeSync,
  mkdirSync,
  openSync,
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
 * A lock this old is taken for a leftover whatever its process id says: a build of 10,000 events takes
 * seconds, and an id can be reused by an unrelated process after a crash.
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
  const created = !statSync(root, { throwIfNoEntry: false });
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
      return { release: () => release(root, path, created) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
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
