import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PARSE_CACHE_FILE, ParseCache } from '../load/parse-cache.js';
import { projectRoot, toolFingerprint } from './fingerprint.js';

/**
 * The parse caches earlier builds left in the projects of `catalogueDirs` (the first's, then each other
 * one's), read and never written: a command that only reads catalogues should not pay for storing. None
 * when no such cache exists (a CI checkout).
 */
export function readOnlyParseCache(catalogueDirs: readonly string[]): ParseCache | undefined {
  const dirs = [...new Set(catalogueDirs.map(projectCacheDir))];
  const present = dirs.filter((dir) => existsSync(join(dir, PARSE_CACHE_FILE)));
  if (present.length === 0) return undefined;
  return new ParseCache(present[0]!, toolFingerprint(), { readOnly: true, alsoFrom: present.slice(1) });
}

/** The project's cache folder, never beside the output: `--out /tmp/x` must not write /tmp/.eventry. */
export function projectCacheDir(catalogueDir: string): string {
  return join(projectRoot(catalogueDir), '.eventry', 'cache');
}
