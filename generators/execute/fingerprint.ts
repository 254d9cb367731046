import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CatalogueSourceFile } from '../load/sources.js';
import { inside, readIfExists, unlessAbsent } from '../shared/fs.js';
import { digestOf, FileDigests } from './digests.js';

// The build's one fingerprint: the state file records it to decide "nothing to do", and the emit
// cache keys its entries with the toolkit half of it, so new generator code never reuses old output.

/** A catalogue file by its digest: the sha256 of its text, or `!` and why it could not be read. */
export interface SourceDigest {
  path: string;
  digest: string;
}

/** Hash of everything the output depends on: the catalogue's files (sorted) and the toolkit (`toolFingerprint`). */
export function hashInputs(sources: readonly SourceDigest[], tool: string): string {
  const hash = createHash('sha256').update(`${tool}\0`);
  for (const source of sources) hash.update(`${source.path}\0${source.digest}\0`);
  return hash.digest('hex');
}

/** The digests of catalogue files read whole. */
export function digestSources(sources: readonly CatalogueSourceFile[]): SourceDigest[] {
  return sources.map((source) => ({
    path: source.path,
    digest: source.unreadable === undefined ? digestOf(source.text) : `!${source.unreadable}`,
  }));
}

/**
 * Fingerprint of the toolkit itself: the code that runs (compiled, in `dist/generators/`), the source
 * folder's templates and package run time (read from `generators/` at build time, never compiled), and
 * the exact dependency versions. `running` is the generators folder the code runs from (a test gives
 * another); `digests` may remember the files' digests from the last build (by absolute path).
 */
export function toolFingerprint(
  running = dirname(dirname(fileURLToPath(import.meta.url))),
  digests = new FileDigests(undefined),
): string {
  const hash = createHash('sha256');
  const root = toolRoot(running);
  const source = join(root, 'generators');
  for (const dir of running === source ? [running] : [running, source]) {
    const prefix = relative(root, dir);
    for (const name of listFiles(dir)) {
      // Not joined: on a no-op, `join` cost more than the stats themselves (see docs/decisions/0102, 0061).
      const file = inside(dir, name);
      hash.update(`${prefix}${sep}${name}\0${digests.digest(file, file)}\0`);
    }
  }
  const lock = join(root, 'package-lock.json');
  hash.update(unlessAbsent(() => digests.digest(lock, lock)) ?? '');
  return hash.digest('hex');
}

/**
 * The project a catalogue belongs to: the nearest folder above it with a package.json (the repository
 * root in the standard layout), else the catalogue's parent folder.
 */
export function projectRoot(catalogueDir: string): string {
  const found = toolRoot(dirname(catalogueDir));
  return readIfExists(join(found, 'package.json')) === undefined ? dirname(catalogueDir) : found;
}

/** The toolkit's root: the nearest folder above the generators that has a package.json. */
function toolRoot(from: string): string {
  let dir = from;
  while (!readIfExists(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * The toolkit's files below `dir` (paths relative to it), sorted. Listed with their types: a recursive
 * listing of names alone stats every entry to find the folders (see docs/decisions/0102).
 */
function listFiles(dir: string): string[] {
  const names: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory() || !/\.(js|ts|json|hbs)$/.test(entry.name)) continue;
    const folder = entry.parentPath;
    names.push(folder === dir ? entry.name : `${folder.slice(dir.length + 1)}${sep}${entry.name}`);
  }
  return names.sort();
}
