import { execFileSync } from 'node:child_process';

/**
 * The few git plumbing calls the diff needs. Everything reads objects (`ls-tree`, `cat-file`), so a
 * catalogue at any commit is loaded without touching the work tree or the index.
 */

/** A git failure the caller can explain to the user (not a bug). */
export class GitError extends Error {}

function git(cwd: string, args: string[], input?: string): Buffer {
  try {
    return execFileSync('git', args, {
      cwd,
      input,
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new GitError(stderr || (error as Error).message);
  }
}

/** The repository's top folder, or undefined outside a work tree. */
export function repoRoot(cwd: string): string | undefined {
  try {
    return git(cwd, ['rev-parse', '--show-toplevel']).toString().trim();
  } catch {
    return undefined;
  }
}

/** The commit a ref names, or undefined when it names none (a typo, `HEAD~1` of a first commit). */
export function resolveCommit(cwd: string, ref: string): string | undefined {
  if (ref.startsWith('-')) return undefined;
  try {
    return git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/** Paths of the files below `folder` (repo-relative, `/`-separated) at a commit. */
export function listFiles(cwd: string, commit: string, folder: string): string[] {
  const out = git(cwd, [
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
export function readFiles(cwd: string, commit: string, paths: string[]): Map<string, string> {
  const objects = readObjects(
    cwd,
    paths.map((path) => `${commit}:${path}`),
  );
  return new Map([...objects].map(([spec, text]) => [spec.slice(commit.length + 1), text]));
}

/** The contents of `<commit>:<path>` objects, one `git cat-file --batch` for all; missing ones are left out. */
export function readObjects(cwd: string, specs: string[]): Map<string, string> {
  const files = new Map<string, string>();
  if (specs.length === 0) return files;
  const out = git(cwd, ['cat-file', '--batch'], specs.map((spec) => `${spec}\n`).join(''));
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

/** Tags matching a glob (`@scope/pkg@*`). */
export function listTags(cwd: string, pattern: string): string[] {
  return git(cwd, ['tag', '--list', pattern])
    .toString()
    .split('\n')
    .filter((tag) => tag !== '');
}

/** Commits reachable from `from` that touched a path, newest first. */
export function commitsTouching(cwd: string, path: string, from = 'HEAD'): string[] {
  return git(cwd, ['log', '--format=%H', '--end-of-options', from, '--', path])
    .toString()
    .split('\n')
    .filter((line) => line !== '');
}

/** The nearest tag matching a glob reachable from `from` (git describe), or undefined. */
export function describeTag(cwd: string, pattern: string, from: string): string | undefined {
  try {
    return git(cwd, ['describe', '--tags', '--abbrev=0', `--match=${pattern}`, '--end-of-options', from])
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/** Whether commit `a` is an ancestor of (or equal to) commit `b`. */
export function isAncestor(cwd: string, a: string, b: string): boolean {
  try {
    git(cwd, ['merge-base', '--is-ancestor', a, b]);
    return true;
  } catch {
    return false;
  }
}

/** The first root commit reachable from `from` (the oldest one on a merged history). */
export function rootCommit(cwd: string, from: string): string | undefined {
  const roots = git(cwd, ['rev-list', '--max-parents=0', '--end-of-options', from])
    .toString()
    .split('\n')
    .filter((line) => line !== '');
  return roots[roots.length - 1];
}
