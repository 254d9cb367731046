import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readIfExists } from '../shared/fs.js';
import { crashPoint, filesBelow } from './durable.js';
import { clearLeftoverLock, isAlive, whileReading } from './lock.js';

// Recovery of an output an interrupted build left: its redo journal applied, or its staging discarded. (split from write.ts, the writer).

/** The folder, inside the output root, where a build stages its files before committing them. */
export const STAGING_DIR = '.eventry-staging';

/** The redo journal; its presence means a build committed and its files must be moved in. */
export const JOURNAL_FILE = '.eventry-journal.json';

export interface Journal {
  staging: string;
  pid: number;
  /** Top-level folders absent from the output when staged: each is moved in whole. */
  putDirs?: string[];
  put: string[];
  remove: string[];
  removeDirs: string[];
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
export function discardStaging(root: string, owned: (pid: number) => boolean): boolean {
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

/** Moves the staged folders and files in, removes what the journal lists, then deletes journal and staging. */
export function applyJournal(root: string, journal: Journal): void {
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
