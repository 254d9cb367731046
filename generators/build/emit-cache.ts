import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { EmitCache, OutputFile } from '../emit/context.js';
import { readIfExists } from '../shared/fs.js';
import { projectRoot } from './fingerprint.js';

/**
 * An `EmitCache` on disk (the project's `.eventry/cache/`, beside the catalogue, git-ignored): one JSON
 * file per unit and key. Entries of a unit other than the current one are pruned on write, so the cache
 * stays one build deep. Entries are written under a unique temporary name and renamed, so two builds
 * sharing the cache never collide and a killed one leaves no half entry (a stray `*.tmp` is swept).
 */
export function createDiskCache(dir: string, toolFingerprint: string): EmitCache {
  const fileOf = (unit: string, key: string) => {
    const digest = createHash('sha256').update(`${toolFingerprint}\0${key}`).digest('hex').slice(0, 32);
    return { prefix: `${safe(unit)}--`, name: `${safe(unit)}--${digest}.json` };
  };
  return {
    get(unit, key) {
      const text = readIfExists(join(dir, fileOf(unit, key).name));
      if (!text) return undefined;
      try {
        return JSON.parse(text) as OutputFile[];
      } catch {
        return undefined;
      }
    },
    set(unit, key, files) {
      const { prefix, name } = fileOf(unit, key);
      replaceEntry(dir, prefix, name, JSON.stringify(files));
    },
    recall(unit) {
      try {
        return deserialize(readFileSync(join(dir, fileOf(unit, 'kept').name.replace(/\.json$/, '.v8'))));
      } catch {
        // Absent, or not v8 data (a damaged file): nothing kept.
        return undefined;
      }
    },
    keep(unit, value) {
      const { prefix, name } = fileOf(unit, 'kept');
      replaceEntry(dir, prefix, name.replace(/\.json$/, '.v8'), serialize(value));
    },
  };
}

/** Writes the entry `name` (atomically) and prunes the unit's other entries (`prefix`). */
function replaceEntry(dir: string, prefix: string, name: string, contents: string | Buffer): void {
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir))
    if (old.startsWith(prefix) && old !== name) rmSync(join(dir, old), { force: true });
  const temporary = join(dir, `${name}.${randomBytes(4).toString('hex')}.tmp`);
  writeFileSync(temporary, contents);
  try {
    renameSync(temporary, join(dir, name));
  } catch (error) {
    // Another build pruned it mid-write: this entry is simply not memoised; the output is unaffected.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The project's cache folder, never beside the output: `--out /tmp/x` must not write /tmp/.eventry. */
export function projectCacheDir(catalogueDir: string): string {
  return join(projectRoot(catalogueDir), '.eventry', 'cache');
}

function safe(unit: string): string {
  return unit.replace(/[^a-z0-9-]/gi, '_');
}
