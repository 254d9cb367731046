import { randomBytes } from 'node:crypto';
import {
  type BigIntStats,
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, sep } from 'node:path';

// Helpers every layer may import: this folder imports nothing of the toolkit.

/** What `work` returns, or undefined when the file it opens does not exist (ENOENT). */
export function unlessAbsent<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A file's text, or undefined when it does not exist. */
export function readIfExists(path: string): string | undefined {
  return unlessAbsent(() => readFileSync(path, 'utf8'));
}

/** A file's bytes, or undefined when it does not exist. */
export function readBytesIfExists(path: string): Buffer | undefined {
  return unlessAbsent(() => readFileSync(path));
}

/**
 * Which file an open file is: its device, inode, size and time in nanoseconds. A rename keeps all of
 * them, so a file staged by a build and then moved into the output keeps the stamp it had when written;
 * a write, or another file in its place, changes it.
 */
export function fileStamp(fd: number): string {
  return stampOf(fstatSync(fd, { bigint: true }));
}

function stampOf(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}`;
}

/** A descriptor of the file at `path` opened for reading, or undefined when it does not exist. */
export function openForReading(path: string): number | undefined {
  return unlessAbsent(() => openSync(path, 'r'));
}

/**
 * A file of the output root, read in ranges and never held whole (a catalogue document is tens of
 * megabytes, and on a virtual machine each fresh page of memory costs more than copying it).
 */
export interface ExistingFile {
  readonly size: number;
  /** Which file this is (`fileStamp`), or undefined when not known. */
  readonly stamp: string | undefined;
  /** Reads from `position` into `into` (up to its length): how many bytes were read. */
  read(into: Uint8Array, position: number): number;
  close(): void;
}

/** The file at `path` opened to be read in ranges, or undefined when there is no file there. */
export function openIfExists(path: string): ExistingFile | undefined {
  const fd = openForReading(path);
  if (fd === undefined) return undefined;
  try {
    const stat = fstatSync(fd, { bigint: true });
    // A folder (or anything but a file) in its place holds no bytes to read: the writer of that path
    // reports it, with the path.
    if (!stat.isFile()) {
      closeSync(fd);
      return undefined;
    }
    let open = true;
    return {
      size: Number(stat.size),
      stamp: stampOf(stat),
      read: (into, position) => readSync(fd, into, 0, into.length, position),
      // Once: a descriptor closed twice may by then be another file's.
      close: () => {
        if (open) closeSync(fd);
        open = false;
      },
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * Writes `path` (and its folder) under a unique temporary name, then renames it into place: a reader,
 * or another process writing it at the same time, sees one whole file, never a torn one.
 */
export function writeAtomically(path: string, contents: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, contents);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * A `/`-separated relative path inside `root`, by concatenation: `join` normalising each of thousands
 * of output paths costs a no-op build (see docs/decisions/0061); every file system takes `/`.
 */
export function inside(root: string, path: string): string {
  return `${root}${sep}${path}`;
}
