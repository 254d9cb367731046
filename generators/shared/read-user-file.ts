import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

// The one way eventry reads a file on a user's behalf (catalogue sources, teams and consumer files,
// the allow-list, the config, the lint baseline): inside the catalogue folder once links are resolved,
// a regular file, and of bounded size. Anything else is refused with a code, and the refusal names
// the path only, never a byte of the file (see docs/decisions/0096-one-reader-for-user-files.md).

/** The largest file read on a user's behalf: well above any catalogue file, far below memory. */
export const MAX_USER_FILE_BYTES = 64 * 1024 * 1024;

/** Why a file was not read: a stable code (also an errno-like `code` on the thrown error) and a reason. */
export type UserFileRefusal = 'outside-catalogue' | 'not-a-regular-file' | 'file-too-large' | 'unreadable';

export type UserFileRead =
  | { ok: true; text: string }
  | { ok: false; absent: true }
  | { ok: false; absent?: false; refusal: UserFileRefusal; reason: string };

/** What `readRegularFile` throws when it refuses: `code` says why, as an errno code would. */
export class UserFileError extends Error {
  constructor(
    readonly code: 'ENOTREG' | 'EFBIG' | 'EOUTSIDE' | 'ENOTUTF8',
    message: string,
    /** Where in the file the refusal is (1-based; columns in UTF-16 units), when it is at one place. */
    readonly at?: { line: number; column: number },
  ) {
    super(message);
  }
}

/** Reasons for the refusals and the errno codes a read can fail with (never the file's content). */
export const USER_FILE_REASONS: Readonly<Record<string, string>> = {
  EOUTSIDE: 'it resolves to a file outside the catalogue folder, which is not read',
  ENOTREG: 'it is not a regular file (a FIFO, a device or a socket), which is not read',
  EFBIG: `it is larger than ${MAX_USER_FILE_BYTES / 1024 / 1024} MiB, which is not read`,
  ENOTUTF8: 'it is not UTF-8 text',
  EISDIR: 'it is a directory, not a file',
  ELOOP: 'it is a symbolic link that loops back on itself',
  ENOENT: 'it is a symbolic link to nothing',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/**
 * The text of a regular file of at most `maxBytes`. Opened without blocking, so a FIFO is refused
 * rather than waited on; a device or anything else but a regular file is refused (`ENOTREG`), and so
 * is a file over the bound (`EFBIG`), read no further than the bound even if it grows meanwhile.
 * File-system errors (ENOENT, EACCES, ...) are thrown as they come.
 */
export function readRegularFile(path: string, maxBytes = MAX_USER_FILE_BYTES): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) {
      const error = new Error('a directory') as NodeJS.ErrnoException;
      error.code = 'EISDIR';
      throw error;
    }
    if (!stat.isFile()) throw new UserFileError('ENOTREG', USER_FILE_REASONS.ENOTREG!);
    if (stat.size > maxBytes) throw new UserFileError('EFBIG', USER_FILE_REASONS.EFBIG!);
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, stat.size + 1));
    let length = 0;
    for (;;) {
      if (length === buffer.length) break;
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes) throw new UserFileError('EFBIG', USER_FILE_REASONS.EFBIG!);
    const bytes = buffer.subarray(0, length);
    // Decoding would put U+FFFD in place of each invalid byte, and the file would be read as
    // something it does not say: a file that is not UTF-8 is refused where it stops being so.
    if (!isUtf8(bytes)) throw notUtf8(bytes);
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The refusal of bytes that are not UTF-8, at the first line that is not (no newline byte is in a character). */
function notUtf8(bytes: Buffer): UserFileError {
  let line = 1;
  let start = 0;
  for (;;) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline < 0 ? bytes.length : newline;
    const text = bytes.subarray(start, end);
    if (!isUtf8(text) || newline < 0) {
      // The first replacement character the lenient decoding makes marks the first invalid byte.
      const column = Math.max(text.toString('utf8').indexOf('\uFFFD'), 0) + 1;
      return new UserFileError('ENOTUTF8', USER_FILE_REASONS.ENOTUTF8!, { line, column });
    }
    start = end + 1;
    line++;
  }
}

/**
 * Whether `path` resolves (through its links) to a file strictly inside `root` (also resolved). A
 * path that cannot be resolved counts as inside: reading it fails with its own reason.
 */
export function resolvesInside(
  root: string,
  path: string,
  realpath: (path: string) => string = realpathSync.native,
): boolean {
  let real: string;
  try {
    real = realpath(path);
  } catch {
    return true;
  }
  let realRoot: string;
  try {
    realRoot = realpath(root);
  } catch {
    return false;
  }
  return isStrictlyBelow(relative(realRoot, real));
}

/** Whether a `relative()` result names something strictly below its base (`..x.yaml` is a file in it). */
function isStrictlyBelow(rel: string): boolean {
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Reads a file the user's catalogue names (`path`, relative to `root` or absolute): absent is
 * `absent`, and a file outside `root` once links are resolved, not regular, too large or unreadable
 * is refused with a code and a reason that quote nothing of it.
 */
export function readUserFile(root: string, path: string, maxBytes = MAX_USER_FILE_BYTES): UserFileRead {
  const full = resolve(root, path);
  if (!isStrictlyBelow(relative(resolve(root), full)) || !resolvesInside(root, full))
    return { ok: false, refusal: 'outside-catalogue', reason: USER_FILE_REASONS.EOUTSIDE! };
  try {
    return { ok: true, text: readRegularFile(full, maxBytes) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, absent: true };
    if (code === undefined) throw error; // not a file-system error: a bug, let it surface
    const refusal: UserFileRefusal =
      code === 'ENOTREG' || code === 'EISDIR'
        ? 'not-a-regular-file'
        : code === 'EFBIG'
          ? 'file-too-large'
          : 'unreadable';
    const at =
      error instanceof UserFileError && error.at ? ` (line ${error.at.line}, column ${error.at.column})` : '';
    return { ok: false, refusal, reason: `${USER_FILE_REASONS[code] ?? code}${at}` };
  }
}
