import { parse as parseYaml } from 'yaml';
import { CONFIG_FILE } from '../load/index.js';
import {
  commitsTouching,
  describeTag,
  type GitPlace,
  isAncestor,
  readObjects,
  repoPath,
  resolveCommit,
} from '../sources/git.js';
import { packageVersion } from '../sources/source.js';

/**
 * Where releases are found, for `eventry version` (per group package) and `eventry check` (the
 * catalogue as a whole). A release is a `<scope>/<slug>@<version>` tag, or else the commit that
 * changed a recorded version (`version` in a package.json or in eventry.config.yaml): that is what
 * `eventry version` writes, so one finder serves both commands.
 */

/** The last released state of one group package, or of the catalogue. */
export interface Release {
  version: string;
  commit: string;
  /** `tag @scope/account@1.2.0` or `commit 1a2b3c4`. */
  via: string;
}

/**
 * The newest commit at or below `from` that changed the version `read` finds in `path` (repo-relative;
 * git runs at `top`, the repository's top folder), or undefined when no commit records one (the first
 * commit that recorded one counts as a release).
 */
function lastVersionChange(
  top: GitPlace,
  path: string,
  read: (text: string | undefined) => string | undefined,
  from = 'HEAD',
): Release | undefined {
  const commits = commitsTouching(top, path, from);
  if (commits.length === 0) return undefined;
  const texts = readObjects(
    top,
    commits.map((commit) => `${commit}:${path}`),
  );
  const versions = commits.map((commit) => read(texts.get(`${commit}:${path}`)));
  for (let i = 0; i < commits.length; i += 1) {
    const version = versions[i];
    if (version && version !== versions[i + 1]) {
      return { version, commit: commits[i]!, via: `commit ${commits[i]!.slice(0, 7)}` };
    }
  }
  return undefined;
}

/**
 * The last release of a package at or below `from`: the nearer of its newest `<name>@<version>` tag and
 * the commit that last changed the version its package.json records (`nearestRelease`, as for the
 * catalogue, so `version` and `check` name the same release).
 */
export function findRelease(
  at: GitPlace,
  top: string,
  name: string,
  manifestPath: string,
  from = 'HEAD',
): Release | undefined {
  const marks = { tags: `${name}@*`, ownTags: true, path: manifestPath, read: packageVersion };
  return nearestRelease(at, top, marks, from);
}

/** The `version` of an eventry.config.yaml text, if it records one. */
export function catalogueVersion(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const version = (parseYaml(text) as { version?: unknown } | null)?.version;
    return typeof version === 'string' && version !== '' ? version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The last release of the catalogue at or below `from`: the nearer of the newest release tag of any of
 * its packages and the commit that last changed the catalogue version.
 */
export function lastRelease(
  at: GitPlace,
  top: string,
  catalogueDir: string,
  scope: string,
  from: string,
): Release | undefined {
  const config = repoPath(top, at.cwd, catalogueDir, CONFIG_FILE);
  const marks = { tags: `${scope}/*@*`, ownTags: false, path: config, read: catalogueVersion };
  return nearestRelease(at, top, marks, from);
}

/** What marks a release of one subject: its tags, and the file (repo-relative) that records its version. */
interface ReleaseMarks {
  tags: string;
  /** Whether the tags carry the subject's own version (a package's), not another's (the catalogue's). */
  ownTags: boolean;
  path: string;
  read: (text: string | undefined) => string | undefined;
}

/**
 * The one rule of what the last release is, for a package and for the catalogue alike: the newest tag
 * matching `marks.tags` reachable from `from`, or the newest commit at or below `from` that changed the
 * recorded version, whichever is nearer to `from` (a tag on a later commit wins; a version commit after
 * the tagged one wins; on one commit, the subject's own tag wins). Tags never reachable from `from`
 * (another branch) are not its releases.
 */
export function nearestRelease(
  at: GitPlace,
  top: string,
  marks: ReleaseMarks,
  from = 'HEAD',
): Release | undefined {
  const tag = describeTag(at, marks.tags, from);
  const tagged = tag ? resolveCommit(at, `refs/tags/${tag}`) : undefined;
  const changed = lastVersionChange({ ...at, cwd: top }, marks.path, marks.read, from);
  const byTag =
    tagged && tag
      ? { version: tag.slice(tag.lastIndexOf('@') + 1), commit: tagged, via: `tag ${tag}` }
      : undefined;
  if (!byTag) return changed;
  if (!changed) return byTag;
  if (byTag.commit === changed.commit) return marks.ownTags ? byTag : changed;
  return isAncestor(at, byTag.commit, changed.commit) ? changed : byTag;
}
