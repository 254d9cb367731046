import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CatalogueSourceFile, hashSources } from '../load/sources.js';
import { readIfExists } from '../shared/fs.js';

// The build's one fingerprint: the state file records it to decide "nothing to do", and the emit
// cache keys its entries with the toolkit half of it, so new generator code never reuses old output.

/** Hash of everything the output depends on: the catalogue and the toolkit (`toolFingerprint`). */
export function hashInputs(sources: CatalogueSourceFile[], tool: string): string {
  return createHash('sha256').update(tool).update(hashSources(sources)).digest('hex');
}

/**
 * Fingerprint of the toolkit itself: the code that runs (compiled, in `dist/generators/`), the source
 * folder's templates and package run time (read from `generators/` at build time, never compiled), and
 * the exact dependency versions. `running` is the generators folder the code runs from (a test gives
 * another).
 */
export function toolFingerprint(running = dirname(dirname(fileURLToPath(import.meta.url)))): string {
  const hash = createHash('sha256');
  const root = toolRoot(running);
  const source = join(root, 'generators');
  for (const dir of running === source ? [running] : [running, source]) {
    for (const file of listFiles(dir)) hash.update(`${relative(root, file)}\0`).update(readFileSync(file));
  }
  hash.update(readIfExists(join(root, 'package-lock.json')) ?? '');
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

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(js|ts|json|hbs|d\.ts)$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}
