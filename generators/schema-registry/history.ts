import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type CatalogueProblem,
  CONFIG_FILE,
  type LoadAccelerator,
  type LoadOptions,
  loadCatalogue,
} from '../load/index.js';
import type { Catalogue } from '../model.js';
import { catalogueVersion } from '../release/last-release.js';
import {
  GitError,
  type GitPlace,
  gitSource,
  headCommit,
  readObjects,
  repoPath,
  repoRoot,
  runGit,
  shallowOrThrow,
} from '../sources/git.js';
import { dataContract } from './data-contract.js';
import { canonicalJson, schemaTextFingerprint, servedSchemaText } from './schema-text.js';
import { typeContracts } from './type-contract.js';

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
  /** The data contract (ruleSet and metadata, as JSON text) of each event that has one (see dataContract). */
  contracts?: Map<string, string>;
  /** The contract of each event in its type subject, as JSON text (see typeContracts): migration rules and all. */
  typeContracts?: Map<string, string>;
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
  /**
   * The catalogue is known to be in a git repository (a reload of a history that had one): no
   * repository found is then git failing to read it, not a catalogue outside git.
   */
  requireRepository?: boolean;
  /** Read a shallow clone's history with a warning that it may be short (the docs), instead of refusing. */
  allowShallow?: boolean;
}

/** The history, or why there is none (the working catalogue does not load). */
export type HistoryResult =
  | { ok: true; history: History }
  | { ok: false; reason: 'problems'; problems: CatalogueProblem[]; root: string }
  | { ok: false; reason: 'message'; message: string }
  /** A shallow clone: releases before its boundary are not there, so the history would be short. */
  | { ok: false; reason: 'shallow'; message: string };

/** What to do about a shallow clone (as the gate says it). */
const FETCH_HINT =
  'fetch the history (`git fetch --unshallow --tags`; GitHub Actions: `actions/checkout` with `fetch-depth: 0`)';

/** Git could not read what the history needs (HEAD, refs, objects): no history is made up instead. */
class HistoryUnreadable extends Error {
  constructor(
    message: string,
    readonly shallow = false,
  ) {
    super(message);
  }
}

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
  const warnings: string[] = [];
  let points: HistoryPoint[];
  // Git first: when it cannot be read, nothing else is worth loading (a folder gone is the loader's to say).
  if (!existsSync(folder)) {
    const missing = loadCatalogue(folder, undefined, load);
    if (!missing.ok)
      return { ok: false, reason: 'problems', problems: missing.problems, root: options.catalogue };
  }
  try {
    points = releasePoints(options, folder, load, warnings);
  } catch (error) {
    if (error instanceof HistoryUnreadable)
      return { ok: false, reason: error.shallow ? 'shallow' : 'message', message: error.message };
    if (error instanceof GitError)
      return { ok: false, reason: 'message', message: `git could not read the history: ${error.message}` };
    throw error;
  }
  const working = loadCatalogue(folder, undefined, load);
  if (!working.ok)
    return { ok: false, reason: 'problems', problems: working.problems, root: options.catalogue };
  const { warnings: left, ...texts } = schemaTexts(working.catalogue);
  warnings.push(...left);
  points.push({ label: 'working catalogue', version: working.catalogue.config.version, ...texts });
  return { ok: true, history: { points, current: working.catalogue, warnings } };
}

/**
 * Every release, oldest first. Git failing anywhere (HEAD, refs, objects) throws: a history read in
 * part would renumber versions and drop ids. A shallow clone is refused for the same reason.
 */
function releasePoints(
  options: HistoryOptions,
  folder: string,
  load: LoadOptions,
  warnings: string[],
): HistoryPoint[] {
  // The catalogue's own repository, wherever the command runs (an agent's client starts `eventry mcp`
  // in a folder of its own); with `GIT_DIR` given, git takes the command's folder as the work tree.
  const at: GitPlace = { cwd: options.env.GIT_DIR ? options.cwd : folder, env: options.env };
  const top = repoRoot(at);
  if (!top) {
    if (!options.requireRepository) return [];
    let why = 'no repository found';
    try {
      runGit(at, ['rev-parse', '--show-toplevel']);
    } catch (error) {
      why = (error as Error).message;
    }
    throw new HistoryUnreadable(`git cannot read the repository the catalogue is in (${why}).`);
  }
  const atTop: GitPlace = { cwd: top, env: options.env };
  if (shallowOrThrow(atTop)) {
    const message = `this clone is shallow, so releases may be missing: ${FETCH_HINT}.`;
    if (!options.allowShallow) throw new HistoryUnreadable(message, true);
    warnings.push(message);
  }
  if (headCommit(atTop) === undefined) return []; // no commit yet: nothing released
  const inRepo = repoPath(top, folder, '.');
  const points: HistoryPoint[] = [];
  for (const release of findReleases(atTop, inRepo)) {
    const label = `${release.version} (${release.commit.slice(0, 7)})`;
    const texts = releaseSchemas(options, atTop, inRepo, release.commit, load);
    if (typeof texts === 'string') {
      warnings.push(`release ${label} left out: ${texts}`);
      continue;
    }
    points.push({ label, commit: release.commit, version: release.version, ...texts });
  }
  return points;
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

/** Called once HEAD is known to name a commit: a failure here is git's, never "no releases". */
function firstParentCommitsTouching(top: GitPlace, path: string): string[] {
  return runGit(top, ['log', '--first-parent', '--format=%H', '--', path])
    .toString()
    .split('\n')
    .filter((line) => line !== '');
}

/** What a history point holds of one catalogue: schema texts and data contracts by event key. */
type PointTexts = {
  schemas: Map<string, string>;
  contracts: Map<string, string>;
  typeContracts: Map<string, string>;
};

/**
 * Schema texts of every event of a catalogue, the data contract of each that has one, and each one's
 * contract in its type subject; `warnings` names the migrations left out of those.
 */
export function schemaTexts(catalogue: Catalogue): PointTexts & { warnings: string[] } {
  const schemas = new Map<string, string>();
  const contracts = new Map<string, string>();
  const typed = typeContracts(catalogue);
  const typeTexts = new Map<string, string>();
  for (const key of Object.keys(catalogue.events).sort()) {
    schemas.set(key, servedSchemaText(catalogue, key));
    const contract = dataContract(catalogue, key);
    if (contract) contracts.set(key, canonicalJson(contract));
    const typeContract = typed.contracts.get(key);
    if (typeContract) typeTexts.set(key, canonicalJson(typeContract));
  }
  return { schemas, contracts, typeContracts: typeTexts, warnings: typed.warnings };
}

/** The schema texts at a release commit, from the cache or loaded from git; a string says why not. */
function releaseSchemas(
  options: HistoryOptions,
  top: GitPlace,
  catalogueInRepo: string,
  commit: string,
  load: LoadOptions,
): PointTexts | string {
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
    // A catalogue that never loaded stays left out; git failing to read one is no history at all.
    if (loaded.reason === 'problems') return `its catalogue has ${loaded.problems.length} problem(s)`;
    throw new HistoryUnreadable(`git could not read release ${commit.slice(0, 7)}: ${loaded.message}`);
  }
  const { warnings: _, ...texts } = schemaTexts(loaded.source.catalogue);
  if (cacheFile && options.cacheDir) {
    try {
      mkdirSync(options.cacheDir, { recursive: true });
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(cacheEntry(texts, inputs)));
      renameSync(temporary, cacheFile);
    } catch {
      // A read-only checkout still serves; it only loads releases again on the next start.
    }
  }
  return texts;
}

/** What a cached release was made from: its catalogue's git tree and the code that made the texts. */
interface CacheInputs {
  tree: string;
  fingerprint: string;
}

/** Names this layout; an entry with another (an older toolkit's bare list) is made again. */
const CACHE_FORMAT = 'eventry-registry-release/4';

/** A release's cache entry: its schemas and contracts with the digest of them and of their inputs. */
interface CacheEntry extends CacheInputs {
  format: typeof CACHE_FORMAT;
  digest: string;
  schemas: [string, string][];
  contracts: [string, string][];
  typeContracts: [string, string][];
}

function cacheEntry({ schemas, contracts, typeContracts }: PointTexts, inputs: CacheInputs): CacheEntry {
  const pairs = [...schemas];
  const contractPairs = [...contracts];
  const typePairs = [...typeContracts];
  const digest = digestOf(pairs, contractPairs, typePairs, inputs);
  return {
    format: CACHE_FORMAT,
    ...inputs,
    digest,
    schemas: pairs,
    contracts: contractPairs,
    typeContracts: typePairs,
  };
}

/**
 * sha256 over the inputs and every key and text, each part length-prefixed so no two lists collide
 * (the count of schemas first, so no pair moves from one list to the other).
 */
function digestOf(
  pairs: readonly Pair[],
  contracts: readonly Pair[],
  typeContracts: readonly Pair[],
  inputs: CacheInputs,
): string {
  const hash = createHash('sha256');
  const parts = [CACHE_FORMAT, inputs.tree, inputs.fingerprint, `${pairs.length}`, ...pairs.flat()];
  const rest = [`${contracts.length}`, ...contracts.flat(), ...typeContracts.flat()];
  for (const part of [...parts, ...rest]) {
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
function readCachedSchemas(file: string, inputs: CacheInputs): PointTexts | undefined {
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
    !wellFormed(entry.schemas) ||
    !wellFormed(entry.contracts) ||
    !wellFormed(entry.typeContracts)
  )
    return undefined;
  if (entry.digest !== digestOf(entry.schemas, entry.contracts, entry.typeContracts, inputs))
    return undefined;
  return {
    schemas: new Map(entry.schemas),
    contracts: new Map(entry.contracts),
    typeContracts: new Map(entry.typeContracts),
  };
}

type Pair = readonly [string, string];

/** A list of `[key, text]` string pairs, keys in order without repeats. */
function wellFormed(pairs: unknown): pairs is [string, string][] {
  if (!Array.isArray(pairs)) return false;
  let previous: string | undefined;
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2) return false;
    const [key, text] = pair as unknown[];
    if (typeof key !== 'string' || typeof text !== 'string') return false;
    if (previous !== undefined && !(previous < key)) return false;
    previous = key;
  }
  return true;
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
