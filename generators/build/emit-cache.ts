import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    return { prefix: `${safe(unit)}--`, name: `${safe(unit)}--${digest}${ENTRY_END}` };
  };
  // The entries by unit, listed once: listing the folder on every write made a full build of n
  // groups read n * n names.
  let entries: Map<string, Set<string>> | undefined;
  const entriesOf = (prefix: string): Set<string> => {
    if (!entries) {
      entries = new Map();
      for (const name of readdirSync(dir)) {
        if (!name.endsWith(ENTRY_END) || name.length <= DIGEST_END) continue;
        const unit = name.slice(0, -DIGEST_END);
        const names = entries.get(unit) ?? new Set<string>();
        entries.set(unit, names.add(name));
      }
    }
    const names = entries.get(prefix) ?? new Set<string>();
    entries.set(prefix, names);
    return names;
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
      mkdirSync(dir, { recursive: true });
      const names = entriesOf(prefix);
      for (const old of names) {
        if (old === name) continue;
        rmSync(join(dir, old), { force: true });
        names.delete(old);
      }
      names.add(name);
      const temporary = join(dir, `${name}.${randomBytes(4).toString('hex')}.tmp`);
      writeFileSync(temporary, JSON.stringify(files));
      try {
        renameSync(temporary, join(dir, name));
      } catch (error) {
        // Another build pruned it mid-write: this entry is simply not memoised; the output is unaffected.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
  };
}

/** How an entry's name ends: `.json`, after the 32 hex digits of its digest. */
const ENTRY_END = '.json';
const DIGEST_END = 32 + ENTRY_END.length;

/** The project's cache folder, never beside the output: `--out /tmp/x` must not write /tmp/.eventry. */
export function projectCacheDir(catalogueDir: string): string {
  return join(projectRoot(catalogueDir), '.eventry', 'cache');
}

function safe(unit: string): string {
  return unit.replace(/[^a-z0-9-]/gi, '_');
}
