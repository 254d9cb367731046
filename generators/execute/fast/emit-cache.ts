import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { OutputFile } from '../../emit/context.js';
import { openForReading, unlessAbsent } from '../../shared/fs.js';
import type { EmitCache } from './emit-context.js';

/**
 * An `EmitCache` on disk (the project's `.eventry/cache/`, beside the catalogue, git-ignored): one JSON
 * file per unit and key, and one v8-serialised file per unit that keeps a value for the next build
 * (`keep`). Entries of a unit other than the current one are pruned on write, so the cache stays one
 * build deep. Entries are written under a unique temporary name and renamed, so two builds
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
      for (const name of unlessAbsent(() => readdirSync(dir)) ?? []) {
        if (name.endsWith('.tmp')) sweepIfStale(join(dir, name));
        // An entry of the format before this one (one JSON text): never read again.
        if (OLD_ENTRY.test(name)) rmSync(join(dir, name), { force: true });
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
      const { prefix, name } = fileOf(unit, key);
      // Not in the folder as listed: no read (a build generating 684 groups tried as many absent files).
      // An entry another build wrote since is simply not reused.
      if (!entriesOf(prefix).has(name)) return undefined;
      return readEntry(join(dir, name), toolFingerprint)?.files;
    },
    last(unit) {
      const { prefix } = fileOf(unit, '');
      const [name] = entriesOf(prefix);
      // Only an entry this toolkit wrote: another's code (an upgrade's first build) is not reused.
      return name === undefined ? undefined : readEntry(join(dir, name), toolFingerprint);
    },
    set(unit, key, files, extra) {
      const { prefix, name } = fileOf(unit, key);
      mkdirSync(dir, { recursive: true });
      const names = entriesOf(prefix);
      for (const old of names) {
        if (old === name) continue;
        rmSync(join(dir, old), { force: true });
        names.delete(old);
      }
      names.add(name);
      writeEntry(dir, name, entryBytes(toolFingerprint, files, extra));
    },
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
      for (const old of readdirSync(dir))
        if (old.startsWith(`${safe(unit)}--`) && old.endsWith(KEPT_END) && old !== name)
          rmSync(join(dir, old), { force: true });
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
 * How old a temporary file in the cache folder must be to be taken for a killed build's (an entry's or
 * the parse cache's, written under a temporary name and renamed): a build running beside this one
 * renames its own within moments.
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

/**
 * An entry's bytes: one line of JSON (the toolkit, the files' paths and byte sizes, and `extra`), then
 * the files' texts one after another as UTF-8, unescaped, not one JSON text (each file escaped, copied
 * and encoded again: see docs/decisions/0004). The texts are encoded once, into a buffer this thread
 * keeps from one entry to the next (a fresh one per group was fresh memory, which costs more than
 * copying here).
 */
function entryBytes(tool: string, files: readonly OutputFile[], extra: unknown): readonly Uint8Array[] {
  let scratch = entryScratch;
  let end = 0;
  const sizes: (number | null)[] = [];
  for (const file of files) {
    const text: unknown = file.contents;
    if (typeof text !== 'string') {
      // Not a text (a bug upstream): written so, the entry is refused when read, never reused.
      sizes.push(null);
      continue;
    }
    // UTF-8 takes at most three bytes per UTF-16 unit.
    if (end + text.length * 3 > scratch.length) {
      const grown = Buffer.allocUnsafe(Math.max(scratch.length * 2, end + text.length * 3));
      scratch.copy(grown, 0, 0, end);
      scratch = grown;
    }
    const size = scratch.write(text, end, 'utf8');
    sizes.push(size);
    end += size;
  }
  entryScratch = scratch;
  const header = {
    tool,
    paths: files.map((file) => file.path),
    sizes,
    ...(extra === undefined ? {} : { extra }),
  };
  return [Buffer.from(`${JSON.stringify(header)}\n`), scratch.subarray(0, end)];
}

/** The buffer `entryBytes` encodes into, kept by the thread (sized to hold most groups' entries). */
let entryScratch = Buffer.allocUnsafe(1 << 20);

/**
 * An entry as `set` wrote it for the toolkit `tool`; undefined when absent, not such an entry (damaged,
 * cut short, another format) or another toolkit's.
 */
function readEntry(path: string, tool: string): { files: OutputFile[]; extra?: unknown } | undefined {
  const fd = openForReading(path);
  if (fd === undefined) return undefined;
  let bytes: Buffer;
  try {
    // Another toolkit's entry is told by its first bytes (`set` writes the toolkit first): the first
    // build after an upgrade would otherwise read and parse every group's old entry for nothing.
    const head = Buffer.from(`{"tool":${JSON.stringify(tool)},`);
    const start = Buffer.alloc(head.length);
    if (readSync(fd, start, 0, head.length, 0) !== head.length || !start.equals(head)) return undefined;
    bytes = readFileSync(fd);
  } finally {
    closeSync(fd);
  }
  const newline = bytes.indexOf(0x0a);
  if (newline === -1) return undefined;
  let header: { tool?: unknown; paths?: unknown; sizes?: unknown; extra?: unknown } | null;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, newline));
  } catch {
    return undefined;
  }
  const { paths, sizes } = header ?? {};
  if (
    header?.tool !== tool ||
    !Array.isArray(paths) ||
    !Array.isArray(sizes) ||
    paths.length !== sizes.length ||
    !sizes.every((size) => Number.isSafeInteger(size) && size >= 0)
  )
    return undefined;
  let at = newline + 1;
  if ((sizes as number[]).reduce((sum, size) => sum + size, at) !== bytes.length) return undefined;
  const files: unknown[] = paths.map((path, i) => {
    const contents = bytes.toString('utf8', at, at + sizes[i]);
    at += sizes[i];
    return { path, contents };
  });
  if (!files.every(isCachedFile)) return undefined;
  return header.extra === undefined ? { files } : { files, extra: header.extra };
}

/**
 * Whether a file read back from an entry is one an emitter could have made: text at a relative path
 * inside the output (no empty, `.` or `..` part). A damaged entry, or one written by hand, is not
 * reused: the unit is generated again rather than failing the build or writing outside the output.
 */
function isCachedFile(file: unknown): file is OutputFile {
  if (file === null || typeof file !== 'object') return false;
  const { path, contents } = file as { path?: unknown; contents?: unknown };
  return (
    typeof path === 'string' &&
    typeof contents === 'string' &&
    path.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !part.includes('\\'))
  );
}

/** Writes `name` in `dir` under a unique temporary name, then renames it into place. */
function writeEntry(dir: string, name: string, contents: Uint8Array | readonly Uint8Array[]): void {
  const temporary = join(dir, `${name}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(temporary, 'w');
  try {
    for (const piece of Array.isArray(contents) ? contents : [contents]) {
      // A short write (a full disk) goes on from where it stopped, or fails as writeFileSync would.
      for (let done = 0; done < piece.length; ) done += writeSync(fd, piece, done);
    }
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, join(dir, name));
  } catch (error) {
    // Another build pruned it mid-write: this entry is simply not memoised; the output is unaffected.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** How a kept value's file name ends (see `keep`). */
const KEPT_END = '.v8';

/** How an entry's name ends: `.entry`, after the 32 hex digits of its digest (see `entryBytes`). */
const ENTRY_END = '.entry';
/** How an entry of the format before `entryBytes` (one JSON text) was named. */
const OLD_ENTRY = /--[0-9a-f]{32}\.json$/;
const DIGEST_END = 32 + ENTRY_END.length;

function safe(unit: string): string {
  return unit.replace(/[^a-z0-9-]/gi, '_');
}
