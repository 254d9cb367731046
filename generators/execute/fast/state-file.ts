import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { OutputFile } from '../../emit/context.js';
import { readBytesIfExists } from '../../shared/fs.js';
import { foldersOf } from '../sweep.js';
import type { FileStat, FileStats } from '../write.js';

// The build state: a main file with one line per top-level folder of the output, and the files below
// each folder's top (the per-event files of a group package) in a file of their own, named by its
// digest, in `STATE_DIR`. An edit reads, checks and writes what it changed, not the whole record (see
// docs/decisions/0004); the main file is the folders' tops (a few files each) and the unit hashes.
//
//   eventry-build-state 3
//   {"inputHash":"…","unitNames":["<slug>",…],"unitHashes":["<unit hash>",…]}
//   ["<folder>",<count>,"<file of its files below its top, or ''>"]<TAB>{<files at its top>}
//   …
//
// Each file is recorded as `"<path inside the folder>":[<size>,<mtimeMs>]`, the lines sorted by folder
// ('' holds the files at the root); a folder's files below its top are its file's text, in the same
// form. A folder kept whole keeps its file as it is (the next state names it again); a file is read
// only when its folder's files are asked for, and one whose digest is not its name counts as damaged.
// A main file in another format (an older toolkit's) counts as no state: the next build is a full one.

/**
 * Where the incremental build remembers what it wrote (inside the output root, git-ignored). It is
 * committed in the same transaction as the files it describes, so it never disagrees with them.
 */
export const STATE_FILE = '.eventry-build-state.json';

/** The folder of the files below each folder's top (see the top of this file), beside `STATE_FILE`. */
export const STATE_DIR = '.eventry-build-state';

/** The first line of a state file in this format. */
const MAGIC = 'eventry-build-state 3';

/** The name of a folder's file in `STATE_DIR`, from its text: what a name read back must be. */
const BELOW_FILE = /^\.eventry-build-state\/[A-Za-z0-9_-]{22}\.json$/;

/** A below-top file as the state names it, and how to read it (from the output it was read from). */
interface BelowFile {
  path: string;
  read: (path: string) => string | undefined;
}

/**
 * A folder's files below its top as a build seals them: their paths, sorted, and their list's text,
 * made from them at once with no object of them (objects per entry were half of a large build's seal);
 * `RecordedArea.below` decodes the text if asked.
 */
class SealedBelow {
  constructor(
    readonly paths: readonly string[],
    readonly text: string,
  ) {}
}

/** `paths` (sorted) below the top of the folder `area`, with their stats in `files`, as sealed. */
function sealedBelow(
  area: string,
  paths: readonly string[],
  files: ReadonlyMap<string, FileStat>,
): SealedBelow {
  return new SealedBelow(
    paths,
    paths.length === 0 ? '{}' : encodeEntries(area, paths, (path) => files.get(path)!),
  );
}

/** What a damaged or missing below-top file reads as: text no file list parses from. */
const DAMAGED = '!';

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

/** One top-level folder's recorded files: those at its top, and those below (read when first asked). */
export class RecordedArea {
  #below: FileStats | undefined;
  #text: string | undefined;
  readonly #file: BelowFile | undefined;
  /** The paths below the top, sorted, when sealed from them (`SealedBelow`): their folders need no decoding. */
  #paths: readonly string[] | undefined;

  /**
   * `below` is the files below the top, or the file in `STATE_DIR` that lists them (`encodeFiles`), as
   * the state named it, or their sorted paths and list as a build seals them (`sealedBelow`).
   */
  constructor(
    readonly name: string,
    readonly top: FileStats,
    readonly belowCount: number,
    below: FileStats | BelowFile | SealedBelow,
  ) {
    if (below instanceof SealedBelow) {
      this.#paths = below.paths;
      this.#text = below.text;
    } else if ('read' in below && typeof below.read === 'function') this.#file = below as BelowFile;
    else this.#below = below as FileStats;
  }

  /** The files below the folder's top (in its subfolders), with their recorded stats. */
  below(): FileStats {
    this.#below ??= decodeFiles(this.name, this.text());
    return this.#below;
  }

  /**
   * Whether `files` are exactly the files recorded below the top, each with the recorded size and
   * time; checked against the file's text without building the recorded stats.
   */
  isBelow(files: FileStats): boolean {
    const paths = Object.keys(files);
    if (paths.length !== this.belowCount) return false;
    if (this.#below) return paths.every((path) => sameStats(this.#below![path], files[path]!));
    const skip = this.name === '' ? 0 : this.name.length + 1;
    let plain: Record<string, [number, number]>;
    try {
      plain = JSON.parse(this.text()) as Record<string, [number, number]>;
    } catch {
      return false;
    }
    if (Object.keys(plain).length !== paths.length) return false;
    return paths.every((path) => {
      const stat = plain[path.slice(skip)];
      return Array.isArray(stat) && sameStats({ size: stat[0], mtimeMs: stat[1] }, files[path]!);
    });
  }

  /**
   * The file in `STATE_DIR` that lists the files below the top: the one the state named (already in
   * the output), or one for this build's list, with its text. None when nothing is below the top.
   */
  belowFile(): { path: string; text?: string } | undefined {
    if (this.belowCount === 0) return undefined;
    if (this.#file) return { path: this.#file.path };
    const text = this.text();
    return { path: belowFilePath(text), text };
  }

  /** What a state that keeps this folder whole records below its top: the same file, unread. */
  kept(): FileStats | BelowFile {
    return this.#file ?? this.below();
  }

  /** Every recorded file of the folder. */
  files(): FileStats {
    return Object.assign(Object.create(null) as FileStats, this.top, this.below());
  }

  /** The folders of the files below the top (each subfolder, and the folders above it inside this one). */
  folders(): Set<string> {
    return foldersOf(this.#paths ?? Object.keys(this.below()));
  }

  /** How many files the folder has. */
  get count(): number {
    return Object.keys(this.top).length + this.belowCount;
  }

  /** The list's text: encoded, or read from its file (checked against the file's name). */
  private text(): string {
    if (this.#text === undefined) {
      if (this.#below) this.#text = encodeFiles(this.name, this.#below);
      else if (this.belowCount === 0) this.#text = '{}';
      else {
        const { path, read } = this.#file!;
        const text = BELOW_FILE.test(path) ? read(path) : undefined;
        this.#text = text !== undefined && belowFilePath(text) === path ? text : DAMAGED;
      }
    }
    return this.#text;
  }
}

/** Where a folder's list `text` goes in `STATE_DIR`: named by its digest. */
function belowFilePath(text: string): string {
  return `${STATE_DIR}/${createHash('sha256').update(text).digest('base64url').slice(0, 22)}.json`;
}

/** Every file the state records, with its stats (parses every folder's line). */
export function recordedFiles(state: BuildState): FileStats {
  const files: FileStats = Object.create(null);
  for (const area of state.areas.values()) Object.assign(files, area.top, area.below());
  return files;
}

/** Whether the state records the file at `path` (an output path): read folder by folder, as asked. */
export function isRecorded(state: BuildState): (path: string) => boolean {
  return (path) => {
    const slash = path.indexOf('/');
    const area = state.areas.get(slash < 0 ? '' : path.slice(0, slash));
    return area !== undefined && (path in area.top || path in area.below());
  };
}

/** How many files the state records. */
export function recordedCount(state: BuildState): number {
  let count = 0;
  for (const area of state.areas.values()) count += area.count;
  return count;
}

/** The state file in `outDir`; undefined when absent, unreadable or in another format (a full build). */
export function readState(outDir: string): BuildState | undefined {
  // Read as bytes, then decoded: faster than Node 20's utf8 read for a file of megabytes (see docs/decisions/0102).
  const text = readBytesIfExists(join(outDir, STATE_FILE))?.toString('utf8');
  if (!text?.startsWith(`${MAGIC}\n`)) return undefined;
  const read = (path: string) => readBytesIfExists(join(outDir, path))?.toString('utf8');
  try {
    const lines = text.split('\n');
    if (lines.at(-1) !== '') return undefined;
    // The unit hashes as two columns: parsed faster than one object keyed by unit (see docs/decisions/0102).
    const head = JSON.parse(lines[1]!) as { inputHash?: unknown; unitNames?: unknown; unitHashes?: unknown };
    if (typeof head.inputHash !== 'string') return undefined;
    const areas = new Map<string, RecordedArea>();
    for (const line of lines.slice(2, -1)) {
      const tab = line.indexOf('\t');
      if (tab < 0) return undefined;
      const [name, count, file] = JSON.parse(line.slice(0, tab)) as [string, number, string];
      const top = decodeFiles(name, line.slice(tab + 1));
      areas.set(name, new RecordedArea(name, top, count, count > 0 ? { path: file, read } : {}));
    }
    let units: Record<string, string> | undefined;
    const { unitNames, unitHashes } = head;
    if (Array.isArray(unitNames) && Array.isArray(unitHashes) && unitNames.length === unitHashes.length) {
      units = Object.create(null) as Record<string, string>;
      unitNames.forEach((unit, i) => {
        units![unit as string] = unitHashes[i] as string;
      });
    }
    return { inputHash: head.inputHash, ...(units ? { units } : {}), areas };
  } catch {
    return undefined;
  }
}

/**
 * The state a build commits: `files`, the stats of the files it enumerated (in any order), and for
 * each folder of `keptBelow` the files below its top as `previous` recorded them (a group package
 * kept whole: its line's text is reused, not parsed).
 */
export function sealState(
  inputHash: string,
  files: ReadonlyMap<string, FileStat>,
  units?: Record<string, string>,
  previous?: BuildState,
  keptBelow?: ReadonlySet<string>,
): BuildState {
  // Each folder's paths, sorted within it: cheaper than one sort of every path (see docs/decisions/0102).
  const byArea = new Map<string, string[]>();
  for (const path of files.keys()) {
    const slash = path.indexOf('/');
    const area = slash > 0 ? path.slice(0, slash) : '';
    const paths = byArea.get(area);
    if (paths) paths.push(path);
    else byArea.set(area, [path]);
  }
  const areas = new Map<string, RecordedArea>();
  const names = new Set([...byArea.keys(), ...(keptBelow ?? [])]);
  for (const name of [...names].sort()) {
    const top: FileStats = Object.create(null);
    const below: string[] = [];
    for (const path of byArea.get(name)?.sort() ?? []) {
      const slash = path.indexOf('/');
      if (slash <= 0 || path.indexOf('/', slash + 1) === -1) top[path] = files.get(path)!;
      else below.push(path);
    }
    const kept = keptBelow?.has(name) ? previous?.areas.get(name) : undefined;
    if (kept && below.length === 0) {
      areas.set(name, new RecordedArea(name, top, kept.belowCount, kept.kept()));
      continue;
    }
    if (kept) {
      // Not expected (a kept folder's files below its top are not enumerated), but kept right if so.
      const merged = new Map(Object.entries(kept.below()));
      for (const path of below) merged.set(path, files.get(path)!);
      const paths = [...merged.keys()].sort();
      areas.set(name, new RecordedArea(name, top, paths.length, sealedBelow(name, paths, merged)));
      continue;
    }
    areas.set(name, new RecordedArea(name, top, below.length, sealedBelow(name, below, files)));
  }
  return { inputHash, ...(units ? { units } : {}), areas };
}

/**
 * The state file for `state`, and (`also`) the files in `STATE_DIR` it names: with their text when this
 * build made them, without when the output has them already (a folder kept whole).
 */
export function stateFile(state: BuildState): OutputFile & { also: { path: string; text?: string }[] } {
  const units = state.units ?? {};
  const lines = [
    MAGIC,
    JSON.stringify({
      inputHash: state.inputHash,
      ...(state.units ? { unitNames: Object.keys(units), unitHashes: Object.values(units) } : {}),
    }),
  ];
  const also = new Map<string, { path: string; text?: string }>();
  for (const [name, area] of state.areas) {
    const below = area.belowFile();
    if (below && !also.get(below.path)?.text) also.set(below.path, below);
    lines.push(
      `${JSON.stringify([name, area.belowCount, below?.path ?? ''])}\t${encodeFiles(name, area.top)}`,
    );
  }
  return { path: STATE_FILE, contents: `${lines.join('\n')}\n`, also: [...also.values()] };
}

function sameStats(a: FileStats[string] | undefined, b: FileStats[string]): boolean {
  return a !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * A folder's files as the state file holds them: `{"<path inside the folder>":[size,mtimeMs],…}`,
 * smaller than full paths and `{size, mtimeMs}` objects.
 */
function encodeFiles(area: string, files: FileStats): string {
  return encodeEntries(area, Object.keys(files), (path) => files[path]!);
}

/** `encodeFiles` of the files `paths`, in that order, with their stats from `statOf`. */
function encodeEntries(area: string, paths: readonly string[], statOf: (path: string) => FileStat): string {
  const skip = area === '' ? 0 : area.length + 1;
  // Written as text, not as an object for `JSON.stringify`, which needs an object entry per file
  // (see docs/decisions/0102). The same text: the paths are unique, none reads as an array index (which an object
  // would list first), and the stats are finite numbers.
  const parts = new Array<string>(paths.length);
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    const stat = statOf(path);
    parts[i] = `${JSON.stringify(path.slice(skip))}:[${stat.size},${stat.mtimeMs}]`;
  }
  return `{${parts.join(',')}}`;
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
