import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { ALLOW_LIST_FILE, CONFIG_FILE, loadCatalogueFromSources } from '../load/index.js';
import { displayPath, loaded, type SourceKind, toPosix, unknownSpec } from './source.js';

/**
 * A git ref as a catalogue input, and the few git plumbing calls it and the release finder need. Everything reads objects (`ls-tree`, `cat-file`), so a
 * catalogue at any commit is loaded without touching the work tree or the index.
 */

/** A git failure the caller can explain to the user (not a bug). */
export class GitError extends Error {
  /** What git printed on stderr (empty when it failed without a word, as `--quiet` does). */
  constructor(
    message: string,
    readonly stderr = '',
  ) {
    super(message);
  }
}

/**
 * Where a git command runs: a folder of the repository, and the environment git gets (the command's
 * container's, so `GIT_DIR`, `HOME` or `GIT_CONFIG_GLOBAL` given to `runCli` are the ones git sees).
 */
export interface GitPlace {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The output of `git ARGS` run at `at`; a `GitError` with git's own message when it fails. */
export function runGit(at: GitPlace, args: string[], input?: string): Buffer {
  try {
    return execFileSync('git', args, {
      cwd: at.cwd,
      input,
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...at.env, GIT_TERMINAL_PROMPT: '0' },
    });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new GitError(stderr || (error as Error).message, stderr ?? '');
  }
}

/** The repository's top folder, or undefined outside a work tree. */
export function repoRoot(at: GitPlace): string | undefined {
  try {
    return runGit(at, ['rev-parse', '--show-toplevel']).toString().trim();
  } catch {
    return undefined;
  }
}

/**
 * `path` (relative to `cwd`), and `file` in it, as the repository at `top` names them: `/`-separated,
 * relative to `top`, through symbolic links. Git knows a file by its real name: a link to the
 * catalogue has no history of its own.
 */
export function repoPath(top: string, cwd: string, path: string, file?: string): string {
  const full = resolve(cwd, path);
  let real = full;
  try {
    real = realpathSync(full);
  } catch {
    // Not there (yet): as named.
  }
  return toPosix(relative(top, file === undefined ? real : join(real, file)));
}

/** The commit a ref names, or undefined when it names none (a typo, `HEAD~1` of a first commit). */
export function resolveCommit(at: GitPlace, ref: string): string | undefined {
  if (ref.startsWith('-')) return undefined;
  try {
    return runGit(at, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/**
 * The commit HEAD names, or undefined on a branch without commits yet. Unlike `resolveCommit`, a
 * repository git cannot read (HEAD, refs) throws a `GitError` rather than looking empty.
 */
export function headCommit(at: GitPlace): string | undefined {
  try {
    return runGit(at, ['rev-parse', '--verify', '--quiet', 'HEAD']).toString().trim();
  } catch (error) {
    if (error instanceof GitError && error.stderr === '') return undefined;
    throw error;
  }
}

/** Whether the clone is shallow; a `GitError` when git cannot tell (unlike `isShallow`). */
export function shallowOrThrow(at: GitPlace): boolean {
  return runGit(at, ['rev-parse', '--is-shallow-repository']).toString().trim() === 'true';
}

/** Paths of the files below `folder` (repo-relative, `/`-separated) at a commit. */
function listFiles(at: GitPlace, commit: string, folder: string): string[] {
  const out = runGit(at, [
    'ls-tree',
    '-r',
    '-z',
    '--name-only',
    '--full-tree',
    commit,
    '--',
    folder,
  ]).toString();
  return out.split('\0').filter((path) => path !== '');
}

/** The contents of several files at a commit, read through one `git cat-file --batch`; by path. */
export function readFiles(at: GitPlace, commit: string, paths: string[]): Map<string, string> {
  const objects = readObjects(
    at,
    paths.map((path) => `${commit}:${path}`),
  );
  return new Map([...objects].map(([spec, text]) => [spec.slice(commit.length + 1), text]));
}

/** The contents of `<commit>:<path>` objects, one `git cat-file --batch` for all; missing ones are left out. */
export function readObjects(at: GitPlace, specs: string[]): Map<string, string> {
  const files = new Map<string, string>();
  if (specs.length === 0) return files;
  const out = runGit(at, ['cat-file', '--batch'], specs.map((spec) => `${spec}\n`).join(''));
  let offset = 0;
  for (const spec of specs) {
    const end = out.indexOf(0x0a, offset);
    const header = out.subarray(offset, end).toString();
    offset = end + 1;
    const match = /^[0-9a-f]+ blob (\d+)$/.exec(header);
    if (!match) continue; // `<spec> missing`: no such file at that commit
    const size = Number(match[1]);
    files.set(spec, out.subarray(offset, offset + size).toString('utf8'));
    offset += size + 1;
  }
  return files;
}

/** Commits reachable from `from` that touched a path, newest first. */
export function commitsTouching(at: GitPlace, path: string, from = 'HEAD'): string[] {
  return runGit(at, ['log', '--format=%H', '--end-of-options', from, '--', path])
    .toString()
    .split('\n')
    .filter((line) => line !== '');
}

/** The nearest tag matching a glob reachable from `from` (git describe), or undefined. */
export function describeTag(at: GitPlace, pattern: string, from: string): string | undefined {
  try {
    return runGit(at, ['describe', '--tags', '--abbrev=0', `--match=${pattern}`, '--end-of-options', from])
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/** Whether commit `a` is an ancestor of (or equal to) commit `b`. */
export function isAncestor(at: GitPlace, a: string, b: string): boolean {
  try {
    runGit(at, ['merge-base', '--is-ancestor', a, b]);
    return true;
  } catch {
    return false;
  }
}

/** The first root commit reachable from `from` (the oldest one on a merged history). */
export function rootCommit(at: GitPlace, from: string): string | undefined {
  const roots = runGit(at, ['rev-list', '--max-parents=0', '--end-of-options', from])
    .toString()
    .split('\n')
    .filter((line) => line !== '');
  return roots[roots.length - 1];
}

/** Whether the clone is shallow (`git clone --depth N`): history before its boundary is not there. */
export function isShallow(at: GitPlace): boolean {
  try {
    return runGit(at, ['rev-parse', '--is-shallow-repository']).toString().trim() === 'true';
  } catch {
    return false;
  }
}

/** The commits at a shallow clone's boundary: they look parentless, but their parents were not fetched. */
export function shallowBoundary(at: GitPlace): Set<string> {
  try {
    const file = runGit(at, ['rev-parse', '--path-format=absolute', '--git-path', 'shallow'])
      .toString()
      .trim();
    return new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    );
  } catch {
    return new Set();
  }
}

/** Whether the work tree's `folder` differs from HEAD (changed, staged, deleted or new files; ignored ones aside). */
export function workTreeDiffers(at: GitPlace, folder: string): boolean {
  const out = runGit(at, [
    'status',
    '--porcelain=v1',
    '-z',
    '--untracked-files=all',
    '--',
    folder,
  ]).toString();
  return out !== '';
}

/** A git ref: the catalogue at that commit, read from git objects (the work tree is never touched). */
export const gitSource: SourceKind = {
  name: 'git',
  claims: (_spec, { cwd, env }) => repoRoot({ cwd, env }) !== undefined,
  resolve(spec, { cwd, env, catalogue, load }) {
    const at: GitPlace = { cwd, env };
    const top = repoRoot(at)!;
    const commit = resolveCommit(at, spec);
    if (!commit) {
      if (/^(HEAD|@)([~^][0-9]*)*$/.test(spec)) {
        return { ok: false, reason: 'absent', message: `\`${spec}\` names no commit in this repository.` };
      }
      return { ok: false, reason: 'usage', message: unknownSpec(spec) };
    }
    const folder = repoPath(top, cwd, catalogue);
    const label = commit.startsWith(spec) ? commit.slice(0, 7) : `${spec} (${commit.slice(0, 7)})`;
    try {
      const prefix = folder === '' ? '' : `${folder}/`;
      const paths = listFiles(at, commit, folder || '.').filter(
        (path) =>
          /\.ya?ml$/.test(path) &&
          !path
            .slice(prefix.length)
            .split('/')
            .some((part) => part.startsWith('.')),
      );
      if (!paths.includes(`${prefix}${CONFIG_FILE}`)) {
        return {
          ok: false,
          reason: 'absent',
          message: `${label} has no catalogue in \`${folder || '.'}/\`.`,
        };
      }
      const texts = readFiles(at, commit, paths);
      const files = paths.map((path) => {
        const text = texts.get(path);
        // Listed in the commit's tree but not readable: git's objects are damaged or out of reach.
        if (text === undefined) throw new GitError(`git could not read ${path} at ${commit.slice(0, 7)}`);
        return { path: path.slice(prefix.length), text };
      });
      const result = loadCatalogueFromSources(files, load);
      const packagesFolder = posix.join(posix.dirname(folder || '.'), 'packages');
      const versions = result.ok
        ? readFiles(
            at,
            commit,
            result.catalogue.groups.map((group) => posix.join(packagesFolder, group.slug, 'package.json')),
          )
        : new Map<string, string>();
      const root = displayPath(cwd, join(top, folder));
      return loaded(result, root, {
        kind: 'git',
        label,
        root,
        allowList: files.find((file) => file.path === ALLOW_LIST_FILE),
        readPackage: (slug) => versions.get(posix.join(packagesFolder, slug, 'package.json')),
      });
    } catch (error) {
      if (error instanceof GitError)
        return { ok: false, reason: 'usage', message: `${label}: ${error.message}` };
      throw error;
    }
  },
};
