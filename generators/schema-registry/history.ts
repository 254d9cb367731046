import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import {
  type CatalogueProblem,
  CONFIG_FILE,
  type LoadAccelerator,
  type LoadOptions,
  loadCatalogue,
} from '../load/index.js';
import type { Catalogue } from '../model.js';
import { catalogueVersion } from '../release/last-release.js';
import { type GitPlace, gitSource, readObjects, repoRoot, runGit } from '../sources/git.js';
import { schemaTextFingerprint, servedSchemaText } from './schema-text.js';

/**
 * The release history a registry is served from. A release is a commit, on the first-parent line of
 * HEAD, whose `eventry.config.yaml` records a catalogue `version` different from the commit before it
 * (what `eventry version` writes). The working catalogue comes last: it is what `latest` means.
 */

/** The schemas of one point in the history. */
export interface HistoryPoint {
  /** `1.2.0 (1a2b3c4)` for a release, `working catalogue` for the last. */
  label: string;
  /** The commit of a release; undefined for the working catalogue. */
  commit?: string;
  /** The catalogue version it records. */
  version: string;
  /** Served schema text by event key (see servedSchemaText). */
  schemas: Map<string, string>;
}

/** The history, oldest first, and what could not be read (a release whose catalogue does not load). */
export interface History {
  points: HistoryPoint[];
  /** The working catalogue (the last point), for settings such as compatibility levels. */
  current: Catalogue;
  warnings: string[];
}

/** Where `loadHistory` looks and caches; git runs with `env`. */
export interface HistoryOptions extends GitPlace {
  /** The folder commands run in. */
  cwd: string;
  /** The catalogue folder, relative to `cwd`. */
  catalogue: string;
  /** Cache folder for release schemas (`.eventry/registry`); none when undefined. */
  cacheDir?: string;
  /** A new accelerator for each load of the history, which its releases share (the plain path when absent). */
  accelerator?: () => LoadAccelerator;
}

/** The history, or why there is none (the working catalogue does not load). */
export type HistoryResult =
  | { ok: true; history: History }
  | { ok: false; reason: 'problems'; problems: CatalogueProblem[]; root: string }
  | { ok: false; reason: 'message'; message: string };

/**
 * Loads every release of the catalogue from git objects, plus the working catalogue. Each release's
 * schema texts are cached under `cacheDir` keyed by the commit's catalogue tree hash (and the code that
 * makes the texts), so a restart reads JSON instead of loading every release again; an entry is used
 * only when it checks out against its digest and inputs (see `readCachedSchemas`).
 */
export function loadHistory(options: HistoryOptions): HistoryResult {
  const folder = resolve(options.cwd, options.catalogue);
  // Releases share most of their files with one another and with the working catalogue: one accelerator
  // for them all may parse each file they hold alike once.
  const load: LoadOptions = options.accelerator ? { accelerator: options.accelerator() } : {};
  const working = loadCatalogue(folder, undefined, load);
  if (!working.ok)
    return { ok: false, reason: 'problems', problems: working.problems, root: options.catalogue };
  const points: HistoryPoint[] = [];
  const warnings: string[] = [];
  // The catalogue's own repository, wherever the command runs (an agent's client starts `eventry mcp`
  // in a folder of its own).
  const top = repoRoot({ cwd: folder, env: options.env });
  if (top) {
    const inRepo = relative(top, folder).split(sep).join('/');
    const atTop: GitPlace = { cwd: top, env: options.env };
    for (const release of findReleases(atTop, inRepo)) {
      const schemas = releaseSchemas(options, atTop, inRepo, release.commit, load);
      if (typeof schemas === 'string') {
        warnings.push(`release ${release.version} (${release.commit.slice(0, 7)}) left out: ${schemas}`);
        continue;
      }
      points.push({
        label: `${release.version} (${release.commit.slice(0, 7)})`,
        commit: release.commit,
        version: release.version,
        schemas,
      });
    }
  }
  points.push({
    label: 'working catalogue',
    version: working.catalogue.config.version,
    schemas: schemaTexts(working.catalogue),
  });
  return { ok: true, history: { points, current: working.catalogue, warnings } };
}

/** A commit that recorded a new catalogue version. */
export interface ReleaseCommit {
  commit: string;
  version: string;
}

/**
 * Release commits, oldest first: first-parent commits where the recorded catalogue version changed
 * (git runs at `top`, the repository's top folder).
 */
function findReleases(top: GitPlace, catalogueInRepo: string): ReleaseCommit[] {
  const configPath = catalogueInRepo === '' ? CONFIG_FILE : `${catalogueInRepo}/${CONFIG_FILE}`;
  const commits = firstParentCommitsTouching(top, configPath).reverse();
  const texts = readObjects(
    top,
    commits.map((commit) => `${commit}:${configPath}`),
  );
  const releases: ReleaseCommit[] = [];
  let previous: string | undefined;
  for (const commit of commits) {
    const version = catalogueVersion(texts.get(`${commit}:${configPath}`));
    if (version !== undefined && version !== previous) releases.push({ commit, version });
    previous = version;
  }
  return releases;
}

function firstParentCommitsTouching(top: GitPlace, path: string): string[] {
  try {
    return runGit(top, ['log', '--first-parent', '--format=%H', '--', path])
      .toString()
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    // A repository without commits yet: no releases.
    return [];
  }
}

/** Schema texts of every event of a catalogue. */
function schemaTexts(catalogue: Catalogue): Map<string, string> {
  const schemas = new Map<string, string>();
  for (const key of Object.keys(catalogue.events).sort()) schemas.set(key, servedSchemaText(catalogue, key));
  return schemas;
}

/** The schema texts at a release commit, from the cache or loaded from git; a string says why not. */
function releaseSchemas(
  options: HistoryOptions,
  top: GitPlace,
  catalogueInRepo: string,
  commit: string,
  load: LoadOptions,
): Map<string, string> | string {
  const tree = treeHash(top, commit, catalogueInRepo);
  const fingerprint = schemaTextFingerprint();
  const cacheFile =
    options.cacheDir && tree
      ? join(
          options.cacheDir,
          `${createHash('sha256').update(`${fingerprint}\0${tree}`).digest('hex').slice(0, 32)}.json`,
        )
      : undefined;
  const inputs = { tree: tree ?? '', fingerprint };
  if (cacheFile) {
    const cached = readCachedSchemas(cacheFile, inputs);
    if (cached) return cached;
  }
  const loaded = gitSource.resolve(commit, { ...top, catalogue: catalogueInRepo || '.', load });
  if (!loaded.ok) {
    return loaded.reason === 'problems'
      ? `its catalogue has ${loaded.problems.length} problem(s)`
      : loaded.message;
  }
  const schemas = schemaTexts(loaded.source.catalogue);
  if (cacheFile && options.cacheDir) {
    try {
      mkdirSync(options.cacheDir, { recursive: true });
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(cacheEntry(schemas, inputs)));
      renameSync(temporary, cacheFile);
    } catch {
      // A read-only checkout still serves; it only loads releases again on the next start.
    }
  }
  return schemas;
}

/** What a cached release was made from: its catalogue's git tree and the code that made the texts. */
interface CacheInputs {
  tree: string;
  fingerprint: string;
}

/** Names this layout; an entry with another (an older toolkit's bare list) is made again. */
const CACHE_FORMAT = 'eventry-registry-release/2';

/** A release's cache entry: its schemas with the digest of them and of their inputs. */
interface CacheEntry extends CacheInputs {
  format: typeof CACHE_FORMAT;
  digest: string;
  schemas: [string, string][];
}

function cacheEntry(schemas: Map<string, string>, inputs: CacheInputs): CacheEntry {
  const pairs = [...schemas];
  return { format: CACHE_FORMAT, ...inputs, digest: digestOf(pairs, inputs), schemas: pairs };
}

/** sha256 over the inputs and every key and text, each part length-prefixed so no two lists collide. */
function digestOf(pairs: readonly (readonly [string, string])[], inputs: CacheInputs): string {
  const hash = createHash('sha256');
  for (const part of [CACHE_FORMAT, inputs.tree, inputs.fingerprint, ...pairs.flat()]) {
    hash.update(`${Buffer.byteLength(part)}:`).update(part);
  }
  return hash.digest('hex');
}

/**
 * A cached release's schemas, only when the entry proves itself: its layout, the inputs it names (the
 * same tree and code as asked), every key and text a string, keys in order without repeats, and its
 * digest. Anything else (a truncated file, `[]`, an edited text, a number for a text) is undefined, and
 * the release is loaded from git again: the registry never serves what it cannot check.
 */
function readCachedSchemas(file: string, inputs: CacheInputs): Map<string, string> | undefined {
  let entry: Partial<CacheEntry>;
  try {
    entry = JSON.parse(readFileSync(file, 'utf8')) as Partial<CacheEntry>;
  } catch {
    return undefined; // absent or unreadable
  }
  if (
    entry === null ||
    typeof entry !== 'object' ||
    entry.format !== CACHE_FORMAT ||
    entry.tree !== inputs.tree ||
    entry.fingerprint !== inputs.fingerprint ||
    !Array.isArray(entry.schemas)
  )
    return undefined;
  const pairs = entry.schemas;
  let previous: string | undefined;
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    const [key, text] = pair as unknown[];
    if (typeof key !== 'string' || typeof text !== 'string') return undefined;
    if (previous !== undefined && !(previous < key)) return undefined;
    previous = key;
  }
  if (entry.digest !== digestOf(pairs, inputs)) return undefined;
  return new Map(pairs);
}

function treeHash(top: GitPlace, commit: string, catalogueInRepo: string): string | undefined {
  try {
    return runGit(top, ['rev-parse', `${commit}:${catalogueInRepo}`])
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}
