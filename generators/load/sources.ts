import { createHash } from 'node:crypto';
import { type Dirent, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import {
  readRegularFile,
  resolvesInside,
  USER_FILE_REASONS,
  UserFileError,
} from '../shared/read-user-file.js';

/** One catalogue file as text, with its path relative to the catalogue root. */
export interface CatalogueSourceFile {
  path: string;
  text: string;
  /**
   * Why the entry could not be read (`EISDIR: a directory named like a catalogue file`, ...); `text`
   * is empty then, and the loader reports it as a located problem instead of throwing.
   */
  unreadable?: string;
  /** Set (with `unreadable`) for a symbolic link that resolves outside the catalogue folder: never read. */
  outside?: true;
  /** Where the file stops being readable (with `unreadable`): its first byte that is not UTF-8. */
  unreadableAt?: { line: number; column: number };
}

/** The two file-system calls the reader makes; injectable so tests can fail them (tests run as root). */
export interface SourceReader {
  readdir(dir: string): Dirent[];
  readFile(path: string): string;
  /** Where a symbolic link leads (the disk's realpath); a reader without it has no links to follow. */
  realpath?(path: string): string;
}

const DISK: SourceReader = {
  readdir: (dir) => readdirSync(dir, { withFileTypes: true }),
  // Regular files of bounded size only: a FIFO or a device named `*.yaml` is refused, never waited on.
  readFile: (path) => readRegularFile(path),
  realpath: (path) => realpathSync.native(path),
};

/** Why a link that leaves the catalogue is not read (the loader reports it as `symlink-outside-catalogue`). */
const OUTSIDE_REASON = 'it is a symbolic link to a file outside the catalogue folder, which is not read';

/** Why reading failed, by the errno codes a catalogue folder can produce (and the reader's refusals). */
const REASONS = USER_FILE_REASONS;

// Kept free of the parser and validator imports: `eventry build` reads and hashes the sources on its
// no-op fast path, before deciding whether anything needs loading at all.

/**
 * Reads every catalogue file below `root` (sorted by path, paths `/`-separated and relative). Never
 * throws for what is in the folder: an entry that cannot be read comes back with `unreadable` set.
 * Symbolic links to folders are not followed (a link loop cannot make the walk endless).
 */
export function readCatalogueSources(root: string, reader: SourceReader = DISK): CatalogueSourceFile[] {
  const files: CatalogueSourceFile[] = [];
  const inside = confinement(root, reader);
  const read = (path: string, link: boolean): CatalogueSourceFile => {
    // A link is followed only when it stays inside the catalogue: one added in a pull request must not
    // make CI read (and quote in its problems) a runner's secrets.
    if (link && !inside(join(root, path)))
      return { path, text: '', unreadable: OUTSIDE_REASON, outside: true };
    try {
      return { path, text: reader.readFile(join(root, path)) };
    } catch (error) {
      const at = error instanceof UserFileError ? error.at : undefined;
      return { path, text: '', unreadable: reasonOf(error), ...(at ? { unreadableAt: at } : {}) };
    }
  };
  walkCatalogue(
    root,
    reader,
    (path, link) => files.push(read(path, link)),
    (path, error) => {
      files.push({ path: `${path}/`, text: '', unreadable: reasonOf(error) });
    },
  );
  return files.sort(byPath);
}

/**
 * The paths of the catalogue files `readCatalogueSources` would read, sorted, without reading them;
 * undefined when a folder below `root` cannot be listed (reading the sources reports why).
 */
export function listCatalogueFiles(root: string): string[] | undefined {
  const paths: string[] = [];
  let listed = true;
  walkCatalogue(
    root,
    DISK,
    (path) => paths.push(path),
    () => {
      listed = false;
    },
  );
  return listed ? paths.sort() : undefined;
}

/** Walks the catalogue folder: `file` for each catalogue file's path, `unlisted` for a folder that failed. */
function walkCatalogue(
  root: string,
  reader: SourceReader,
  file: (path: string, link: boolean) => void,
  unlisted: (path: string, error: unknown) => void,
): void {
  const walk = (relative: string): void => {
    let entries: Dirent[];
    try {
      entries = reader.readdir(relative === '' ? root : join(root, relative));
    } catch (error) {
      if (relative === '') throw error; // no catalogue at all: the caller's to report
      unlisted(relative, error);
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const yaml = /\.ya?ml$/.test(entry.name);
      // A folder named like a catalogue file is almost certainly a mistake: say so rather than walk it.
      if (entry.isDirectory() && !yaml) walk(path);
      else if (yaml) file(path, entry.isSymbolicLink());
    }
  };
  walk('');
}

/**
 * Whether a linked path resolves inside `root` (both through their links). A link that cannot be
 * resolved (a loop, a dangling link) counts as inside: reading it fails with its own reason.
 */
function confinement(root: string, reader: SourceReader): (path: string) => boolean {
  const realpath = reader.realpath;
  if (!realpath) return () => true;
  return (path) => resolvesInside(root, path, realpath);
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined) throw error; // not a file-system error: a bug, let it surface
  return REASONS[code] ?? `${code}: ${(error as Error).message}`;
}

/** sha256 over paths and contents, so the same catalogue always has the same hash. */
export function hashSources(files: readonly CatalogueSourceFile[]): string {
  const hash = createHash('sha256');
  // Each part on its own: one string of path and text would copy every file's text to be hashed.
  for (const file of files) {
    hash.update(`${file.path}\0`);
    hash.update(file.unreadable ? `!${file.unreadable}` : file.text);
    hash.update('\0');
  }
  return hash.digest('hex');
}
