import { join } from 'node:path';
import { projectRoot } from './fingerprint.js';

/** The project's cache folder, never beside the output: `--out /tmp/x` must not write /tmp/.eventry. */
export function projectCacheDir(catalogueDir: string): string {
  return join(projectRoot(catalogueDir), '.eventry', 'cache');
}
