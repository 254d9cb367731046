import { join } from 'node:path';
import type { EmitOptions } from '../emit/context.js';
import { packageJsonPath, versionOf } from '../emit/package/package-json.js';
import type { Catalogue } from '../model.js';
import { readIfExists } from '../shared/fs.js';

/** The emitters' options for a build into `outDir`: the version of each group package already there. */
export function readEmitOptions(model: Catalogue, outDir: string): EmitOptions {
  const versions: Record<string, string> = {};
  for (const group of model.groups) {
    const version = versionOf(readIfExists(join(outDir, packageJsonPath(group.slug))));
    if (version !== undefined) versions[group.slug] = version;
  }
  return { versions };
}
