import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { toolFingerprint } from '../../fingerprint.js';
import { projectCacheDir } from '../../project-cache.js';
import { PARSE_CACHE_FILE, ParseCache } from './parse-cache.js';

// The loader's speed twins behind its one seam (`load/accelerator.ts`): the CLI builds a `FastLoad`
// and passes it to the load; the plain loader never imports this folder.

export { FastLoad } from './fast-load.js';
export { MODEL_SNAPSHOT_FILE, ModelSnapshot } from './model-snapshot.js';
export { ParseCache } from './parse-cache.js';

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
