import { closeSync, fstatSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { inside, openForReading, readBytesIfExists, readIfExists } from '../shared/fs.js';
import type { StagingTarget, WriterFile } from './commit-types.js';

// Whether a file the build produces is in the output already, as it would be written. (split from write.ts, the writer).

/**
 * Whether the output holds `file` already: by what the emitter found when it read the output, else by
 * reading it back (a file of a folder that does not exist is not read); with the size and time of the
 * file when it was read.
 */
export function inOutput(
  root: string,
  file: WriterFile,
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
function unchangedTarget(path: string, file: WriterFile): { size: number; mtimeMs: number } | undefined {
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
function holds(bytes: Buffer, file: WriterFile): boolean {
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
 * A file an emitter wrote into the staging folder (`sunk`): its size and time, or undefined when the
 * output holds the same bytes (the staged copy is then removed).
 */
export function settleSunk(
  target: StagingTarget,
  file: WriterFile,
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
export function folderMemo(root: string): (dir: string) => boolean {
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

/** A path the file system named in an error, as the output path it stands for (`/`-separated) if it is one. */
export function outputPath(path: string, { root, staging }: StagingTarget): string {
  const folder = [staging, root].find((dir) => path.startsWith(`${dir}${sep}`));
  return folder
    ? path
        .slice(folder.length + 1)
        .split(sep)
        .join('/')
    : path;
}

/** The folder of an output path, relative to the root ('' at the root). */
export function folderOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')));
}
