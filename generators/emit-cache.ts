import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmitCache, OutputFile } from './emit/context.js';
import { readIfExists } from './write.js';

/**
 * An `EmitCache` on disk (`.eventry/cache/`, git-ignored): one JSON file per unit and key. Entries of
 * a unit other than the current one are pruned on write, so the cache stays one build deep.
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
      mkdirSync(dir, { recursive: true });
      for (const old of readdirSync(dir))
        if (old.startsWith(prefix) && old !== name) rmSync(join(dir, old), { force: true });
      const temporary = join(dir, `${name}.tmp`);
      writeFileSync(temporary, JSON.stringify(files));
      renameSync(temporary, join(dir, name));
    },
  };
}

function safe(unit: string): string {
  return unit.replace(/[^a-z0-9-]/gi, '_');
}
