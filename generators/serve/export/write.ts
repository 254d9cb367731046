import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { writeAtomically } from '../../shared/fs.js';
import { markOutputFolder } from '../../shared/output-folder.js';
import type { ReleaseEntry } from './layout.js';

/**
 * Writing a static registry: each release into a folder of its own, whole or not at all, then the
 * pointer to it. Nothing eventry did not write is deleted or overwritten (the caller checked the
 * folder with `checkOutputFolder` first); earlier releases stay, so clients that cached one keep it.
 */

/** The marker of a folder `eventry registry export` writes. */
export const EXPORT_MARKER = '.eventry-registry-export';

/** The folder of the releases, and the prefix of a release being written. */
const RELEASES = 'releases';
const STAGING_PREFIX = '.staging-';

/** What one export put in place. */
export interface WrittenRelease {
  /** Whether the release folder was written now (false: an earlier export had written the same one). */
  written: boolean;
  /** The release folder, relative to the export root. */
  path: string;
}

/**
 * Writes the files `files()` gives (each time the same) as `releases/<id>/` under `root` (staged under a
 * temporary name, every file synced, then renamed whole), then points `current.json` and the
 * `current` link at it, each by an atomic rename.
 */
export function writeRelease(
  root: string,
  id: string,
  files: () => Iterable<ReleaseEntry>,
  pointer: Record<string, unknown>,
): WrittenRelease {
  const link = join(root, 'current');
  const existing = lstatSync(link, { throwIfNoEntry: false });
  // Checked before anything is written: a `current` that is not the export's link is the user's.
  if (existing && !existing.isSymbolicLink()) {
    throw new Error(`${link} is not the link an export writes; nothing was written`);
  }
  mkdirSync(join(root, RELEASES), { recursive: true });
  markOutputFolder(root, EXPORT_MARKER, `${JSON.stringify({ format: 1 })}\n`);
  sweepDeadStaging(join(root, RELEASES));
  const path = `${RELEASES}/${id}`;
  const target = join(root, path);
  const written = !existsSync(target);
  if (written) {
    const staging = join(root, RELEASES, `${STAGING_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      writeAll(staging, files());
      renameSync(staging, target);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another export of the same release won the rename: its folder is this one, byte for byte.
      if (!existsSync(target)) throw error;
    }
  }
  writeAtomically(
    join(root, 'current.json'),
    `${JSON.stringify({ ...pointer, release: id, path }, null, 2)}\n`,
  );
  pointLink(link, path);
  return { written, path };
}

/** Writes every file (and its folders), then syncs them to disk (`syncFiles`). */
function writeAll(staging: string, files: Iterable<ReleaseEntry>): void {
  const made = new Set<string>();
  const names: string[] = [];
  for (const [file, content] of files) {
    const path = join(staging, file);
    const folder = dirname(path);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    if (Buffer.isBuffer(content)) writeFileSync(path, content, { flag: 'wx' });
    else writeLines(path, content);
    names.push(file);
  }
  syncFiles(staging, names);
}

/** Writes text given line by line, in writes of about 64 KiB. */
function writeLines(path: string, lines: Iterable<string>): void {
  const fd = openSync(path, 'wx');
  try {
    let pending: string[] = [];
    let size = 0;
    for (const line of lines) {
      pending.push(line);
      size += line.length;
      if (size >= 1 << 16) {
        writeFileSync(fd, pending.join(''));
        pending = [];
        size = 0;
      }
    }
    writeFileSync(fd, pending.join(''));
  } finally {
    closeSync(fd);
  }
}

/**
 * Puts written files on disk before the release is renamed into place: one `syncfs(2)` of their file
 * system (GNU `sync --file-system`) where there is one, else an fsync per file, which costs a disk
 * flush each: 3 ms a file here, 10 minutes for the 10k-event catalogue's export
 * (docs/decisions/0136-static-registry-atomic-releases.md).
 */
function syncFiles(staging: string, files: Iterable<string>): void {
  try {
    execFileSync('sync', ['--file-system', staging], { stdio: 'ignore' });
    return;
  } catch {
    // Not GNU coreutils (macOS, BusyBox): file by file.
  }
  for (const file of files) {
    const fd = openSync(join(staging, file), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** Points the symbolic link `link` at `target` by renaming a new link over it. */
function pointLink(link: string, target: string): void {
  const temporary = `${link}.${randomBytes(4).toString('hex')}.tmp`;
  symlinkSync(target, temporary);
  try {
    renameSync(temporary, link);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Removes release folders an interrupted export left half written (their process is gone). */
function sweepDeadStaging(releases: string): void {
  for (const name of readdirSync(releases)) {
    const pid = Number(/^\.staging-([0-9]+)-[0-9a-f]+$/.exec(name)?.[1]);
    if (pid && !isAlive(pid)) rmSync(join(releases, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
