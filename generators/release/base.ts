import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { ErrorCode } from '../shared/error-codes.js';
import {
  type GitPlace,
  isShallow,
  repoPath,
  repoRoot,
  resolveCommit,
  rootCommit,
  shallowBoundary,
  workTreeDiffers,
} from '../sources/git.js';
import { findRelease, lastRelease, type Release } from './last-release.js';

/**
 * The one place that decides what a change is compared with: the base of `eventry check` and the last
 * release `eventry version` bumps from. A base that cannot be seen (a shallow clone that hides it, a ref
 * that names no commit) is a problem for the caller to report as a usage error, never a pass.
 */

/** Whose release: the catalogue as a whole (`check`) or one group package (`version`). */
export type ReleaseSubject =
  | { kind: 'catalogue'; catalogueDir: string; scope: string }
  | { kind: 'package'; name: string; manifestPath: string };

/** Why no base could be chosen; `code` is stable, `message` says what to do. */
export interface BaseProblem {
  code: Extract<ErrorCode<'gate'>, 'shallow-history' | 'base-not-found' | 'not-a-repository'>;
  message: string;
}

/** What `eventry check` compares with. */
export type GateBase =
  /** A commit: a release, one the user named, or the root commit before any release. */
  | { kind: 'commit'; ref: string; commit: string; why: string; neverReleased: boolean }
  /** A spec that names no commit (a catalogue folder, an `npm:` package): its source resolves it. */
  | { kind: 'given'; ref: string; why: string }
  /** Nothing released and no commit before the change: every event in it is new. */
  | { kind: 'empty'; why: string };

/** Either a value or the reason there is none. */
export type BaseResult<T> = { ok: true; value: T } | { ok: false; problem: BaseProblem };

/** How to let the gate see its base: printed with every base problem. */
const FETCH_HINT =
  'fetch the history (`git fetch --unshallow --tags`; GitHub Actions: `actions/checkout` with `fetch-depth: 0`; ' +
  'GitLab CI: `GIT_DEPTH: 0`), or name a base this clone holds with --base or EVENTRY_BASE (e.g. `origin/main`)';

/**
 * The newest release of `subject` at or below `from`, or none when it was never released. In a shallow
 * clone a release is only trusted when it is a tag or a version change the clone can see whole: at the
 * boundary, "the first commit that records a version" may just be the first commit fetched.
 */
export function findLastRelease(
  at: GitPlace,
  subject: ReleaseSubject,
  from = 'HEAD',
): BaseResult<Release | undefined> {
  const top = repoRoot(at);
  if (!top) {
    return {
      ok: false,
      problem: {
        code: 'not-a-repository',
        message: 'not inside a git repository: releases are found in its history.',
      },
    };
  }
  const release =
    subject.kind === 'catalogue'
      ? lastRelease(at, top, subject.catalogueDir, subject.scope, from)
      : findRelease(at, top, subject.name, subject.manifestPath, from);
  if (!isShallow(at)) return { ok: true, value: release };
  const boundary = shallowBoundary(at);
  if (release && (release.via.startsWith('tag ') || !boundary.has(release.commit))) {
    return { ok: true, value: release };
  }
  const seen = release
    ? `the oldest commit it holds (${release.commit.slice(0, 7)}) records a version, but earlier releases are not fetched`
    : 'no release is among the commits it holds';
  return {
    ok: false,
    problem: { code: 'shallow-history', message: `this clone is shallow and ${seen}: ${FETCH_HINT}.` },
  };
}

/**
 * The base of the version policy gate. `explicit` (from `--base` or `EVENTRY_BASE`) wins. Otherwise the
 * newest release at or before HEAD, HEAD included when the catalogue in the work tree differs from it
 * (uncommitted changes are checked against what HEAD released); with a clean work tree the release
 * strictly before HEAD (a release commit is checked as a whole). Before any release, in a full
 * history: the root commit, or an empty catalogue when HEAD is the first commit.
 */
export function resolveGateBase(
  at: GitPlace,
  subject: { catalogueDir: string; scope: string },
  explicit?: { spec: string; from: '--base' | 'EVENTRY_BASE' },
): BaseResult<GateBase> {
  if (explicit) {
    const commit = repoRoot(at) ? resolveCommit(at, explicit.spec) : undefined;
    if (!commit) return { ok: true, value: { kind: 'given', ref: explicit.spec, why: explicit.from } };
    const outside = outsideRepository(at, subject.catalogueDir);
    if (outside) return { ok: false, problem: outside };
    const why = commit.startsWith(explicit.spec) ? explicit.from : `${explicit.spec}, from ${explicit.from}`;
    return { ok: true, value: { kind: 'commit', ref: explicit.spec, commit, why, neverReleased: false } };
  }
  const outside = outsideRepository(at, subject.catalogueDir);
  if (outside) return { ok: false, problem: outside };
  const head = repoRoot(at) ? resolveCommit(at, 'HEAD') : undefined;
  if (!head) {
    const found = findLastRelease(at, { kind: 'catalogue', ...subject });
    if (!found.ok) return found;
    return { ok: true, value: { kind: 'empty', why: 'no commit yet, so nothing released' } };
  }
  const from = workTreeDiffers(at, subject.catalogueDir) ? head : resolveCommit(at, `${head}^`);
  if (!from) {
    if (isShallow(at)) {
      const message = `this clone is shallow and holds no commit before HEAD: ${FETCH_HINT}.`;
      return { ok: false, problem: { code: 'shallow-history', message } };
    }
    return {
      ok: true,
      value: { kind: 'empty', why: 'nothing released before HEAD, the first commit' },
    };
  }
  const found = findLastRelease(at, { kind: 'catalogue', ...subject }, from);
  if (!found.ok) return found;
  if (found.value) {
    const release = found.value;
    const why = `${viaTag(release)}the last release${release.commit === head ? ', HEAD' : ''}`;
    return {
      ok: true,
      value: { kind: 'commit', ref: release.commit, commit: release.commit, why, neverReleased: false },
    };
  }
  const root = rootCommit(at, from)!;
  return {
    ok: true,
    value: {
      kind: 'commit',
      ref: root,
      commit: root,
      why: 'the root commit: nothing released yet',
      neverReleased: true,
    },
  };
}

/** A release as both commands print it: `commit 1a2b3c4` (with its tag when it has one). */
export function describeRelease(release: Release): string {
  return `commit ${release.commit.slice(0, 7)}${release.via.startsWith('tag ') ? ` (${release.via})` : ''}`;
}

/** The gate's base as `check` prints it: `commit 1a2b3c4 (the last release)`. */
export function describeBase(base: GateBase): string {
  if (base.kind === 'empty') return `an empty catalogue (${base.why})`;
  if (base.kind === 'given') return `${base.ref} (${base.why})`;
  return `commit ${base.commit.slice(0, 7)} (${base.why})`;
}

function viaTag(release: Release): string {
  return release.via.startsWith('tag ') ? `${release.via}, ` : '';
}

/** What to do about a base that names no commit: fetch more history when the clone is shallow. */
export function missingBaseHint(at: GitPlace): string {
  return isShallow(at)
    ? `this clone is shallow: ${FETCH_HINT}.`
    : 'name a branch, tag or commit this repository holds with --base or EVENTRY_BASE (e.g. `origin/main`).';
}

/**
 * A catalogue folder outside the repository git runs in (the current folder's): that history holds
 * none of its releases, so no base can be found in it.
 */
function outsideRepository(at: GitPlace, catalogueDir: string): BaseProblem | undefined {
  const top = repoRoot(at);
  if (!top) return undefined;
  const inRepo = repoPath(realpathSync(top), at.cwd, catalogueDir);
  if (inRepo !== '..' && !inRepo.startsWith('../') && !isAbsolute(inRepo)) return undefined;
  return {
    code: 'not-a-repository',
    message: `the catalogue \`${catalogueDir}\` is outside the git repository of the current folder, so that history holds none of its releases: run eventry from inside the repository that holds the catalogue, or name a catalogue folder as --base (that needs no history).`,
  };
}
