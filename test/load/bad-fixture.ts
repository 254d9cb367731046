import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceReader } from '../../generators/load/index.js';
import { tempDir } from '../helpers.js';

/**
 * File-system entries git cannot hold (a folder named like a YAML file, a symlink loop, a control
 * character in a name) or that root can always read: `setup.json` beside `expected.json` describes
 * them, and the case runs on a temporary copy that has them.
 */
interface Setup {
  directories?: string[];
  symlinks?: Record<string, string>;
  renames?: Record<string, string>;
  /** Entries whose reads fail with EACCES through an injected reader (chmod does not stop root). */
  denied?: string[];
}

/** The bad-catalogue corpus folder. */
export const BAD = fileURLToPath(new URL('../fixtures/bad/', import.meta.url));

/** Every case under test/fixtures/bad, sorted. */
export const badCases: string[] = readdirSync(BAD, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The catalogue folder of a case (a prepared temporary copy if it has a `setup.json`), and its reader. */
export function prepareBadCase(name: string): { root: string; reader?: SourceReader; denied: boolean } {
  const committed = join(BAD, name, 'catalogue');
  let setup: Setup;
  try {
    setup = JSON.parse(readFileSync(join(BAD, name, 'setup.json'), 'utf8')) as Setup;
  } catch {
    return { root: committed, denied: false };
  }
  const root = join(tempDir(`eventry-bad-${name}-`), 'catalogue');
  cpSync(committed, root, { recursive: true });
  for (const dir of setup.directories ?? []) mkdirSync(join(root, dir), { recursive: true });
  for (const [link, target] of Object.entries(setup.symlinks ?? {})) symlinkSync(target, join(root, link));
  for (const [from, to] of Object.entries(setup.renames ?? {})) {
    mkdirSync(dirname(join(root, to)), { recursive: true });
    renameSync(join(root, from), join(root, to));
  }
  const denied = new Set((setup.denied ?? []).map((path) => join(root, path)));
  if (denied.size === 0) return { root, denied: false };
  const reader: SourceReader = {
    readdir: (dir) => readdirSync(dir, { withFileTypes: true }),
    readFile: (path) => {
      if (denied.has(path)) {
        throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
      }
      return readFileSync(path, 'utf8');
    },
  };
  return { root, reader, denied: true };
}
