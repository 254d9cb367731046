import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONFIG_FILE, formatProblem, type LoadAccelerator } from '../load/index.js';
import { checkCompatibilityOverrides } from '../schema-registry/config-check.js';
import { loadHistory } from '../schema-registry/history.js';
import { SchemaRegistryState } from '../schema-registry/registry.js';
import { type GitPlace, resolveCommit } from '../sources/git.js';
import { buildServedState, type ServedState, type ServedStateHolder } from './served-state.js';

/**
 * `serve` follows the repository: it polls the checked-out commit and the working catalogue's files,
 * and when either changed it loads the history again and swaps the served state whole. A reload that
 * fails (a catalogue half-edited, a broken release) keeps the state being served and says why.
 */

/** Where the served history comes from; git runs with `env`. */
export interface ServedSource extends GitPlace {
  cwd: string;
  /** The catalogue folder, relative to `cwd`. */
  catalogue: string;
  /** Release schema cache folder (`.eventry/registry`); none when undefined. */
  cacheDir?: string;
  /** How each load of the history is accelerated (`HistoryOptions.accelerator`). */
  accelerator?: () => LoadAccelerator;
}

/** A loaded state, or why the history does not load (problems already formatted, one per line). */
export type LoadedState =
  | { ok: true; served: ServedState }
  | { ok: false; message: string; cause: 'catalogue' | 'git' };

/**
 * Loads the history and builds the state to serve; the commit checked out is recorded with it.
 * `previous`: the state served so far; when it came from a repository (a release, a commit), git
 * failing to find one now is a failure to read it, never a history without releases.
 */
export function loadServedState(source: ServedSource, previous?: ServedState): LoadedState {
  const head = resolveCommit(source, 'HEAD');
  const hadRepository =
    previous !== undefined && (previous.release.release !== null || !!previous.release.head);
  const result = loadHistory({ ...source, requireRepository: hadRepository });
  if (!result.ok) {
    if (result.reason !== 'problems') return { ok: false, message: result.message, cause: 'git' };
    return {
      ok: false,
      message: result.problems.map((problem) => formatProblem(problem, result.root)).join('\n'),
      cause: 'catalogue',
    };
  }
  const folder = resolve(source.cwd, source.catalogue);
  const subjects = new Set(result.history.points.flatMap((point) => [...point.schemas.keys()]));
  const configText = readFileSync(join(folder, CONFIG_FILE), 'utf8');
  const problems = checkCompatibilityOverrides(result.history.current, configText, subjects);
  if (problems.length > 0) {
    return {
      ok: false,
      message: problems.map((problem) => formatProblem(problem, source.catalogue)).join('\n'),
      cause: 'catalogue',
    };
  }
  const state = new SchemaRegistryState(result.history);
  // An id once served keeps resolving for the life of the process (README, `serve`).
  if (previous) state.keepIdsOf(previous.state);
  return { ok: true, served: buildServedState(result.history, head, state) };
}

/** What `/healthz` says of a reload that failed: no path, no git output (the log has those). */
const DEGRADED = {
  git: 'git could not read the repository (HEAD, refs or objects): serving the last state read',
  catalogue: 'the changed catalogue does not load: serving the last state that did',
} as const;

/** What a reload tells the caller. */
export interface FollowEvents {
  /** A new state is being served. */
  reloaded(served: ServedState): void;
  /** What changed does not load (or git cannot be read): the previous state is still served. */
  failed(message: string, cause: 'catalogue' | 'git'): void;
}

/** A running follower. */
export interface Follower {
  /** Checks for a change now and reloads if there is one; true when it swapped the state. */
  check(): boolean;
  /** Stops polling. */
  stop(): void;
}

/**
 * Polls every `intervalMs` (a timer that does not keep the process alive) and reloads on a change of
 * the commit checked out or of any file under the catalogue folder (name, size or modification time).
 */
export function followRepository(
  holder: ServedStateHolder,
  source: ServedSource,
  intervalMs: number,
  events: FollowEvents,
): Follower {
  let seen = fingerprint(source);
  let reported: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const check = (): boolean => {
    const now = fingerprint(source);
    // After git failed, every poll tries again: git may come back with nothing else changed.
    if (now === seen && reported === undefined) return false;
    // A catalogue that does not load is tried again on its next change, and reported once.
    seen = now;
    const loaded = loadServedState(source, holder.current);
    if (!loaded.ok) {
      // Still served, and `/healthz` says so until a reload succeeds (docs/decisions/0094).
      holder.current.degraded ??= { reason: DEGRADED[loaded.cause], since: new Date().toISOString() };
      if (loaded.message !== reported) events.failed(loaded.message, loaded.cause);
      reported = loaded.cause === 'git' ? loaded.message : undefined;
      return false;
    }
    reported = undefined;
    holder.swap(loaded.served);
    events.reloaded(loaded.served);
    return true;
  };
  const schedule = () => {
    timer = setTimeout(() => {
      try {
        check();
      } catch (error) {
        holder.current.degraded ??= { reason: DEGRADED.git, since: new Date().toISOString() };
        events.failed(`reload failed: ${(error as Error).message}`, 'git');
      }
      schedule();
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    check,
    stop: () => clearTimeout(timer),
  };
}

/** The commit checked out and every catalogue file's path, size and modification time, as one string. */
function fingerprint(source: ServedSource): string {
  const lines = [resolveCommit(source, 'HEAD') ?? 'no commit'];
  walk(resolve(source.cwd, source.catalogue), '', lines);
  return lines.join('\n');
}

/**
 * Lists the files under a folder, skipping hidden folders and `node_modules` (a catalogue at the
 * repository root would otherwise walk `.git`, the `.eventry` cache a reload writes, and dependencies).
 */
function walk(folder: string, prefix: string, lines: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    lines.push(`${prefix}\0unreadable`);
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && entry.name !== 'node_modules')
        walk(path, `${prefix}${entry.name}/`, lines);
    } else if (entry.isFile()) {
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat) lines.push(`${prefix}${entry.name}\0${stat.size}\0${stat.mtimeMs}`);
    }
  }
}
