import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where `npm run build:tool` records which sources `dist/` was compiled from (see `digestToolkitSources`). */
export const BUILT_FROM_FILE = join('dist', 'built-from.sha256');

/** What the compiled toolkit is made of, below the repository root: tsc's and precompile's inputs. */
const SOURCE_FOLDERS = ['generators', 'scripts'];
const SOURCE_FILES = ['package-lock.json', 'tsconfig.json'];

/**
 * The digest of every source the compiled toolkit (`dist/`) is built from under `root`: each file's path
 * and content (images aside), so a source edited, added or removed since the last build changes it.
 */
export function digestToolkitSources(root: string): string {
  const hash = createHash('sha256');
  const files = SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
      .map((name) => join(folder, name))
      .filter((path) => !path.endsWith('.png') && statSync(join(root, path)).isFile()),
  );
  for (const path of [...files.sort(), ...SOURCE_FILES]) {
    hash
      .update(`${path}\0`)
      .update(readFileSync(join(root, path)))
      .update('\0');
  }
  return hash.digest('hex');
}
