import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { EmitCache } from './emit-context.js';

/**
 * An `EmitCache` on disk (the project's `.eventry/cache/`, beside the catalogue, git-ignored): one
 * v8-serialised file per unit that keeps a value for the next build (`keep`), replacing the last one.
 * Written under a unique temporary name and renamed, so two builds sharing the cache never collide
 * and a killed one leaves no half file (a stray `*.tmp` is swept). The group package entries earlier
 * toolkits memoised here are removed as the folder is listed (see docs/decisions/0080).
 */
export function createDiskCache(dir: string, toolFingerprint: string): EmitCache {
  return {
    recall(unit) {
      try {
        return deserialize(readFileSync(join(dir, keptName(unit))));
      } catch {
        // Absent, or not v8 data (a damaged file): nothing kept.
        return undefined;
      }
    },
    keep(unit, value) {
      const name = keptName(unit);
      mkdirSync(dir, { recursive: true });
      // A few units keep a value (not one per group), so listing the folder here costs nothing.
      for (const old of readdirSync(dir)) {
        if (old.endsWith('.tmp')) sweepIfStale(join(dir, old));
        else if (OLD_ENTRY.test(old)) rmSync(join(dir, old), { force: true });
        else if (old !== name && keptOf(old) === safe(unit)) rmSync(join(dir, old), { force: true });
      }
      writeEntry(dir, name, serialize(value));
    },
  };

  /** The file of what `unit` keeps for the next build (`keep`), v8-serialised. */
  function keptName(unit: string): string {
    const digest = createHash('sha256').update(`${toolFingerprint}\0kept`).digest('hex').slice(0, 32);
    return `${safe(unit)}--${digest}${KEPT_END}`;
  }
}

/**
 * How old a temporary file in the cache folder must be to be taken for a killed build's (a kept
 * value's or the parse cache's, written under a temporary name and renamed): a build running beside
 * this one renames its own within moments.
 */
const STALE_TEMPORARY_MS = 10 * 60 * 1000;

/** Removes a temporary file of the cache folder left by a killed build (see `STALE_TEMPORARY_MS`). */
function sweepIfStale(path: string): void {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.isFile() && Date.now() - stats.mtimeMs > STALE_TEMPORARY_MS) rmSync(path, { force: true });
  } catch {
    // Gone meanwhile, or not ours to remove: the cache works without it.
  }
}

/** Writes `name` in `dir` under a unique temporary name, then renames it into place. */
function writeEntry(dir: string, name: string, contents: Uint8Array): void {
  const temporary = join(dir, `${name}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temporary, 'w');
  try {
    // A short write (a full disk) goes on from where it stopped, or fails as writeFileSync would.
    for (let done = 0; done < contents.length; ) done += writeSync(fd, contents, done);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, join(dir, name));
  } catch (error) {
    // Another build pruned it mid-write: this value is simply not kept; the output is unaffected.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** How a kept value's file name ends (see `keep`). */
const KEPT_END = '.v8';

/** A kept value's file: its unit's name, `--`, 32 hex digits (the toolkit's), `.v8`. */
const KEPT = /^(.+)--[0-9a-f]{32}\.v8$/;

/** The unit (as `safe` writes it) whose kept value `name` is, if it is one. */
function keptOf(name: string): string | undefined {
  return KEPT.exec(name)?.[1];
}

/** A group package entry of an earlier toolkit's memo (`.entry`, or before it one JSON text). */
const OLD_ENTRY = /--[0-9a-f]{32}\.(entry|json)$/;

function safe(unit: string): string {
  return unit.replace(/[^a-z0-9-]/gi, '_');
}
