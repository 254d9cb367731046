import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashSources, readCatalogueSources } from '../load/sources.js';
import { readIfExists } from '../shared/fs.js';
import { findOrphans, ownedAreas } from '../sweep.js';
import { type FileStats, recoverOutput } from '../write.js';

/** Options of `eventry build`. */
export interface BuildOptions {
  catalogue: string;
  out: string;
  force?: boolean;
  /** commander's `--no-cache`: false turns the per-group output cache off. */
  cache?: boolean;
}

interface BuildState {
  inputHash: string;
  files: FileStats;
}

/**
 * Where the incremental build remembers what it wrote (inside the output root, git-ignored). It is
 * committed in the same transaction as the files it describes, so it never disagrees with them.
 */
export const STATE_FILE = '.eventry-build-state.json';

/**
 * `eventry build`. The fast path decides "nothing to do" from file hashes and stats alone, before the
 * loader, ajv or any emitter is imported: that is what keeps a no-op rebuild in the tens of ms.
 */
export async function runBuild(options: BuildOptions): Promise<number> {
  const started = performance.now();
  const outDir = resolve(options.out);
  const catalogueDir = resolve(options.catalogue);
  if (!statSync(catalogueDir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`eventry: no catalogue folder at ${options.catalogue} (give one with --catalogue <dir>).`);
    return 2;
  }
  const outStat = statSync(outDir, { throwIfNoEntry: false });
  if (outStat && !outStat.isDirectory()) {
    console.error(`eventry: --out ${options.out} is not a directory (give the packages folder).`);
    return 2;
  }
  const recovered = recoverOutput(outDir);
  if (recovered === 'rolled-forward')
    console.log('eventry: finished moving in the output of an interrupted build.');
  if (recovered === 'rolled-back')
    console.log('eventry: discarded the staged files of an interrupted build.');
  const sources = readCatalogueSources(catalogueDir);
  const tool = toolFingerprint();
  const inputHash = hashInputs(sources, tool);
  const state = readState(outDir);
  if (!options.force && state && state.inputHash === inputHash && outputsExact(outDir, state)) {
    console.log(
      `eventry: nothing to do: catalogue unchanged, ${Object.keys(state.files).length} files up to date (${ms(started)}).`,
    );
    return 0;
  }

  const { buildCatalogue } = await import('../build.js');
  const { formatProblem } = await import('../load/index.js');
  const { createDiskCache } = await import('../emit-cache.js');
  // The project's cache, never beside the output: `--out /tmp/x` must not write /tmp/.eventry.
  const cache =
    options.cache === false
      ? undefined
      : createDiskCache(join(projectRoot(catalogueDir), '.eventry', 'cache'), tool);
  const result = await buildCatalogue(sources, outDir, {
    previous: state ? Object.keys(state.files) : [],
    seal: (files) => ({ path: STATE_FILE, contents: `${JSON.stringify({ inputHash, files })}\n` }),
    ...(cache ? { cache } : {}),
  });
  if (!result.ok) {
    if ('problems' in result) {
      for (const problem of result.problems) console.error(formatProblem(problem, options.catalogue));
      console.error(
        `eventry: build failed: ${result.problems.length} problem(s) in the catalogue; nothing was written.`,
      );
    } else if ('writeError' in result) {
      const { path, code } = result.writeError;
      console.error(
        `eventry: build failed: error write-failed: cannot write ${path} (${code}${WRITE_HINTS.get(code) ?? ''}).`,
      );
      console.error('eventry: nothing was written.');
    } else {
      const { emitter, error } = result.emitterError;
      console.error(
        `eventry: build failed in emitter ${emitter}: ${error instanceof Error ? (process.env.EVENTRY_DEBUG ? error.stack : error.message) : String(error)}`,
      );
      console.error('eventry: nothing was written.');
    }
    return 1;
  }
  const { written, unchanged, removed } = result.report;
  const events = Object.keys(result.catalogue.events).length;
  console.log(
    `eventry: built ${events} events in ${result.catalogue.groups.length} groups: ${written.length} files written, ` +
      `${unchanged} unchanged, ${removed.length} removed (${ms(started)}).`,
  );
  return 0;
}

/** Hash of everything the output depends on: the catalogue and the toolkit. */
function hashInputs(sources: { path: string; text: string }[], tool: string): string {
  return createHash('sha256').update(tool).update(hashSources(sources)).digest('hex');
}

/**
 * Fingerprint of the toolkit itself: the code that runs (compiled, in `dist/generators/`), the source
 * folder's templates and package run time (read from `generators/` at build time, never compiled), and
 * the exact dependency versions.
 */
function toolFingerprint(): string {
  const hash = createHash('sha256');
  const running = dirname(dirname(fileURLToPath(import.meta.url)));
  const root = toolRoot(running);
  const source = join(root, 'generators');
  for (const dir of running === source ? [running] : [running, source]) {
    for (const file of listFiles(dir)) hash.update(`${relative(root, file)}\0`).update(readFileSync(file));
  }
  hash.update(readIfExists(join(root, 'package-lock.json')) ?? '');
  return hash.digest('hex');
}

/**
 * The project a catalogue belongs to: the nearest folder above it with a package.json (the repository
 * root in the standard layout), else the catalogue's parent folder.
 */
function projectRoot(catalogueDir: string): string {
  const found = toolRoot(dirname(catalogueDir));
  return readIfExists(join(found, 'package.json')) === undefined ? dirname(catalogueDir) : found;
}

/** The toolkit's root: the nearest folder above the generators that has a package.json. */
function toolRoot(from: string): string {
  let dir = from;
  while (!readIfExists(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(js|ts|json|hbs|d\.ts)$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/** Why a file could not be written, for the codes an author can cause. */
const WRITE_HINTS = new Map([
  ['ENAMETOOLONG', ': the file name is too long for the file system; shorten the event key'],
  ['EACCES', ': permission denied'],
  ['ENOSPC', ': no space left on the device'],
]);

/** The recorded files are there as written, and nothing else is in the folders the build owns. */
function outputsExact(outDir: string, state: BuildState): boolean {
  if (!outputsIntact(outDir, state)) return false;
  const recorded = new Set(Object.keys(state.files));
  const areas = ownedAreas(outDir, recorded);
  const orphans = findOrphans(outDir, recorded, areas, areas);
  return orphans.files.length === 0 && orphans.emptyDirs.length === 0;
}

function outputsIntact(outDir: string, state: BuildState): boolean {
  for (const [path, expected] of Object.entries(state.files)) {
    try {
      const stat = statSync(join(outDir, path));
      if (stat.size !== expected.size || stat.mtimeMs !== expected.mtimeMs) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function readState(outDir: string): BuildState | undefined {
  const text = readIfExists(join(outDir, STATE_FILE));
  if (!text) return undefined;
  try {
    return JSON.parse(text) as BuildState;
  } catch {
    return undefined;
  }
}

function ms(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}
