import { join } from 'node:path';
import type { OutputFile } from '../emit/context.js';
import { readBytesIfExists } from '../shared/fs.js';
import type { FileStats } from './write.js';

// The build state's file, one line per top-level folder of the output, so that an edit reads, checks
// and writes what it changed and not the whole record: at 10,000 events the state holds 56,000 files
// (6 MB of JSON), and parsing and writing all of it was a good part of an edit's commit.
//
//   eventry-build-state 2
//   {"inputHash":"…","units":{"<slug>":"<unit hash>",…}}
//   ["<folder>",<count>]<TAB>{<files at its top>}<TAB>{<files below its top>}
//   …
//
// Each file is recorded as `"<path inside the folder>":[<size>,<mtimeMs>]`, the lines sorted by folder ('' holds the files at the root). The files below a folder's top (the per-event
// files of a group package) are parsed only when asked for, and a group package kept whole copies its
// line's last part as it is. A file in another format (the single JSON object of older toolkits)
// counts as no state: the next build is a full one.

/**
 * Where the incremental build remembers what it wrote (inside the output root, git-ignored). It is
 * committed in the same transaction as the files it describes, so it never disagrees with them.
 */
export const STATE_FILE = '.eventry-build-state.json';

/** The first line of a state file in this format. */
const MAGIC = 'eventry-build-state 2';

/**
 * What the state file records: the inputs' fingerprint, each group package's unit hash (its inputs and
 * the toolkit), which lets an edit skip the untouched groups, and the stats of every file written.
 */
export interface BuildState {
  inputHash: string;
  units?: Record<string, string>;
  /** The recorded files by top-level folder of the output (sorted; '' for the files at the root). */
  areas: Map<string, RecordedArea>;
}

/** One top-level folder's recorded files: those at its top, and those below (parsed when first asked). */
export class RecordedArea {
  #below: FileStats | undefined;
  #text: string | undefined;

  /** `below` is the files below the top, or their text as the state file holds it (`encodeFiles`). */
  constructor(
    readonly name: string,
    readonly top: FileStats,
    readonly belowCount: number,
    below: FileStats | string,
  ) {
    if (typeof below === 'string') this.#text = below;
    else this.#below = below;
  }

  /** The files below the folder's top (in its subfolders), with their recorded stats. */
  below(): FileStats {
    this.#below ??= decodeFiles(this.name, this.#text!);
    return this.#below;
  }

  /**
   * Whether `files` are exactly the files recorded below the top, each with the recorded size and
   * time; checked against the line's text without building the recorded stats.
   */
  isBelow(files: FileStats): boolean {
    const paths = Object.keys(files);
    if (paths.length !== this.belowCount) return false;
    if (this.#below) return paths.every((path) => sameStats(this.#below![path], files[path]!));
    const skip = this.name === '' ? 0 : this.name.length + 1;
    let plain: Record<string, [number, number]>;
    try {
      plain = JSON.parse(this.#text!) as Record<string, [number, number]>;
    } catch {
      return false;
    }
    if (Object.keys(plain).length !== paths.length) return false;
    return paths.every((path) => {
      const stat = plain[path.slice(skip)];
      return Array.isArray(stat) && sameStats({ size: stat[0], mtimeMs: stat[1] }, files[path]!);
    });
  }

  /** The files below the top as the state file's text (kept as read when never changed). */
  belowText(): string {
    this.#text ??= encodeFiles(this.name, this.#below!);
    return this.#text;
  }

  /** Every recorded file of the folder. */
  files(): FileStats {
    return Object.assign(Object.create(null) as FileStats, this.top, this.below());
  }

  /** How many files the folder has. */
  get count(): number {
    return Object.keys(this.top).length + this.belowCount;
  }
}

/** Every file the state records, with its stats (parses every folder's line). */
export function recordedFiles(state: BuildState): FileStats {
  const files: FileStats = Object.create(null);
  for (const area of state.areas.values()) Object.assign(files, area.top, area.below());
  return files;
}

/** How many files the state records. */
export function recordedCount(state: BuildState): number {
  let count = 0;
  for (const area of state.areas.values()) count += area.count;
  return count;
}

/** The state file in `outDir`; undefined when absent, unreadable or in another format (a full build). */
export function readState(outDir: string): BuildState | undefined {
  // Read as bytes, then decoded: for a file of megabytes, twice as fast as Node 20's utf8 read (50 ms
  // against 100 for the 5.7 MB of a 10,000-event build; small files read faster the other way).
  const text = readBytesIfExists(join(outDir, STATE_FILE))?.toString('utf8');
  if (!text?.startsWith(`${MAGIC}\n`)) return undefined;
  try {
    const lines = text.split('\n');
    if (lines.at(-1) !== '') return undefined;
    const head = JSON.parse(lines[1]!) as { inputHash?: unknown; units?: Record<string, string> };
    if (typeof head.inputHash !== 'string') return undefined;
    const areas = new Map<string, RecordedArea>();
    for (const line of lines.slice(2, -1)) {
      const first = line.indexOf('\t');
      const second = line.indexOf('\t', first + 1);
      if (first < 0 || second < 0) return undefined;
      const [name, count] = JSON.parse(line.slice(0, first)) as [string, number];
      const top = decodeFiles(name, line.slice(first + 1, second));
      areas.set(name, new RecordedArea(name, top, count, line.slice(second + 1)));
    }
    const units = head.units
      ? Object.assign(Object.create(null) as Record<string, string>, head.units)
      : undefined;
    return { inputHash: head.inputHash, ...(units ? { units } : {}), areas };
  } catch {
    return undefined;
  }
}

/**
 * The state a build commits: `files`, the stats of the files it enumerated (sorted by path), and for
 * each folder of `keptBelow` the files below its top as `previous` recorded them (a group package
 * kept whole: its line's text is reused, not parsed).
 */
export function sealState(
  inputHash: string,
  files: FileStats,
  units?: Record<string, string>,
  previous?: BuildState,
  keptBelow?: ReadonlySet<string>,
): BuildState {
  const tops = new Map<string, FileStats>();
  const belows = new Map<string, FileStats>();
  const into = (map: Map<string, FileStats>, area: string) => {
    let stats = map.get(area);
    if (!stats) {
      stats = Object.create(null) as FileStats;
      map.set(area, stats);
    }
    return stats;
  };
  for (const [path, stat] of Object.entries(files)) {
    const slash = path.indexOf('/');
    const area = slash > 0 ? path.slice(0, slash) : '';
    const atTop = slash <= 0 || path.indexOf('/', slash + 1) === -1;
    into(atTop ? tops : belows, area)[path] = stat;
  }
  const areas = new Map<string, RecordedArea>();
  const names = new Set([...tops.keys(), ...belows.keys(), ...(keptBelow ?? [])]);
  for (const name of [...names].sort()) {
    const top = tops.get(name) ?? (Object.create(null) as FileStats);
    const kept = keptBelow?.has(name) ? previous?.areas.get(name) : undefined;
    if (kept && !belows.has(name)) {
      areas.set(name, new RecordedArea(name, top, kept.belowCount, kept.belowText()));
      continue;
    }
    let below = belows.get(name) ?? (Object.create(null) as FileStats);
    if (kept) {
      // Not expected (a kept folder's files below its top are not enumerated), but kept right if so.
      const merged = Object.assign(Object.create(null) as FileStats, kept.below(), below);
      below = Object.create(null) as FileStats;
      for (const path of Object.keys(merged).sort()) below[path] = merged[path]!;
    }
    areas.set(name, new RecordedArea(name, top, Object.keys(below).length, below));
  }
  return { inputHash, ...(units ? { units } : {}), areas };
}

/** The state file for `state`. */
export function stateFile(state: BuildState): OutputFile {
  const lines = [
    MAGIC,
    JSON.stringify({ inputHash: state.inputHash, ...(state.units ? { units: state.units } : {}) }),
  ];
  for (const [name, area] of state.areas) {
    lines.push(
      `${JSON.stringify([name, area.belowCount])}\t${encodeFiles(name, area.top)}\t${area.belowText()}`,
    );
  }
  return { path: STATE_FILE, contents: `${lines.join('\n')}\n` };
}

function sameStats(a: FileStats[string] | undefined, b: FileStats[string]): boolean {
  return a !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * A folder's files as the state file holds them: `{"<path inside the folder>":[size,mtimeMs],…}`, a
 * third of the size of full paths and `{size, mtimeMs}` objects (at 10,000 events, 6 MB became 4).
 */
function encodeFiles(area: string, files: FileStats): string {
  const skip = area === '' ? 0 : area.length + 1;
  const plain: Record<string, [number, number]> = Object.create(null);
  for (const [path, stat] of Object.entries(files)) plain[path.slice(skip)] = [stat.size, stat.mtimeMs];
  return JSON.stringify(plain);
}

/**
 * The files of `encodeFiles`' text. Text that is not (a state file edited by hand: the files below a
 * folder's top are parsed after the state was read) gives one file that no output has, so the
 * folder's files count as not intact and are generated again.
 */
function decodeFiles(area: string, text: string): FileStats {
  const prefix = area === '' ? '' : `${area}/`;
  const files: FileStats = Object.create(null);
  try {
    const plain = JSON.parse(text) as Record<string, [number, number]>;
    for (const [path, stat] of Object.entries(plain)) {
      if (!Array.isArray(stat) || typeof stat[0] !== 'number' || typeof stat[1] !== 'number') throw stat;
      files[prefix + path] = { size: stat[0], mtimeMs: stat[1] };
    }
    return files;
  } catch {
    return { [`${prefix}.eventry-damaged-state`]: { size: -1, mtimeMs: -1 } };
  }
}
