import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** One catalogue file as text, with its path relative to the catalogue root. */
export interface CatalogueSourceFile {
  path: string;
  text: string;
}

// Kept free of the parser and validator imports: `eventry build` reads and hashes the sources on its
// no-op fast path, before deciding whether anything needs loading at all.

/** Reads every catalogue file below `root` (sorted by path, paths `/`-separated and relative). */
export function readCatalogueSources(root: string): CatalogueSourceFile[] {
  const names = readdirSync(root, { recursive: true, encoding: 'utf8' });
  return names
    .filter((name) => /\.ya?ml$/.test(name) && !name.split(sep).some((part) => part.startsWith('.')))
    .map((name) => relative(root, join(root, name)).split(sep).join('/'))
    .sort()
    .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));
}

/** sha256 over paths and contents, so the same catalogue always has the same hash. */
export function hashSources(files: CatalogueSourceFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.path}\0${file.text}\0`);
  return hash.digest('hex');
}
