import { posix, relative, resolve, sep } from 'node:path';
import semverRsort from 'semver/functions/rsort.js';
import semverValid from 'semver/functions/valid.js';
import { parse as parseYaml } from 'yaml';
import { CONFIG_FILE } from '../load/index.js';
import {
  commitsTouching,
  describeTag,
  type GitPlace,
  isAncestor,
  listTags,
  readObjects,
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
 * The last release of a package: its highest `<name>@<version>` tag, else the newest commit that changed
 * the version its package.json records.
 */
export function findRelease(
  at: GitPlace,
  top: string,
  name: string,
  manifestPath: string,
  from = 'HEAD',
): Release | undefined {
  const prefix = `${name}@`;
  const tagged = listTags(at, `${prefix}*`)
    .map((tag) => tag.slice(prefix.length))
    .filter((version) => semverValid(version) === version);
  if (tagged.length > 0) {
    const version = semverRsort(tagged)[0]!;
    const commit = resolveCommit(at, `refs/tags/${prefix}${version}`);
    if (commit) return { version, commit, via: `tag ${prefix}${version}` };
  }
  return lastVersionChange({ ...at, cwd: top }, manifestPath, packageVersion, from);
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
  const tag = describeTag(at, `${scope}/*@*`, from);
  const tagged = tag ? resolveCommit(at, `refs/tags/${tag}`) : undefined;
  const config = toPosix(relative(top, resolve(at.cwd, catalogueDir, CONFIG_FILE)));
  const changed = lastVersionChange({ ...at, cwd: top }, config, catalogueVersion, from);
  const byTag =
    tagged && tag
      ? { version: tag.slice(tag.lastIndexOf('@') + 1), commit: tagged, via: `tag ${tag}` }
      : undefined;
  if (!byTag) return changed;
  if (!changed) return byTag;
  return isAncestor(at, byTag.commit, changed.commit) ? changed : byTag;
}

function toPosix(path: string): string {
  return path.split(sep).join(posix.sep);
}
