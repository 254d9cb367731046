import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import semverGt from 'semver/functions/gt.js';
import semverValid from 'semver/functions/valid.js';
import { compareCatalogues } from '../diff/index.js';
import type { Finding } from '../diff/rule.js';
import { applyBump, type Bump, bumpFor, maxBump } from '../diff/semver.js';
import { type CatalogueProblem, CONFIG_FILE, type LoadOptions } from '../load/index.js';
import { type Catalogue, type Group, groupPackageName } from '../model.js';
import { readIfExists } from '../shared/fs.js';
import { readUserFile } from '../shared/read-user-file.js';
import { directorySource } from '../sources/folder.js';
import { type GitPlace, gitSource, repoRoot } from '../sources/git.js';
import { packageVersion } from '../sources/source.js';
import { findLastRelease } from './base.js';
import { changelogEntry, prependChangelog } from './changelog.js';
import { setConfigVersion } from './config-version.js';
import type { Release } from './last-release.js';

/** Where `eventry version` works: the repository, and the packages folder inside it. */
export type ReleaseFolders =
  | { kind: 'located'; top: string; packagesDir: string }
  | { kind: 'not-a-repository' }
  | { kind: 'outside-repository'; top: string };

/** What `planVersions` decided for one group package. */
export type PackageVersion =
  /** No `package.json` in the packages folder: the package was never built. */
  | { kind: 'unbuilt'; name: string; manifest: string }
  | { kind: 'never-released'; name: string }
  | { kind: 'base-unloadable'; name: string; release: Release }
  | { kind: 'unchanged'; name: string; release: Release }
  /** Its package.json records a version past the target: left alone. */
  | { kind: 'ahead'; name: string; release: Release; bump: Bump; target: string; recorded: string }
  /** `files` are those to write (empty: already done). */
  | { kind: 'bumped'; name: string; release: Release; bump: Bump; target: string; files: string[] };

/** What `planVersions` decided for the catalogue's own `version:`. */
export type CatalogueVersion =
  | { kind: 'unchanged' }
  | { kind: 'no-version-line' }
  | { kind: 'in-place'; recorded: string; bump: Bump; from: string }
  | { kind: 'bumped'; from: string; target: string; bump: Bump };

/** The outcome of `planVersions`: the plan and the files it writes, or why there is none. */
export type VersionRun =
  | { kind: 'planned'; packages: PackageVersion[]; catalogue: CatalogueVersion; writes: FileWrite[] }
  | { kind: 'problems'; problems: CatalogueProblem[]; root: string }
  | { kind: 'unreadable'; message: string }
  | { kind: 'release-problem'; code: string; message: string };

/** A file the release replaces whole. */
export interface FileWrite {
  path: string;
  contents: string;
}

/** The repository and packages folder of a release; `out` relative to `at.cwd`. */
export function locateReleaseFolders(at: GitPlace, out: string): ReleaseFolders {
  const packagesDir = resolve(at.cwd, out);
  const top = repoRoot(at);
  if (!top) return { kind: 'not-a-repository' };
  // git reports the repository's real path: compare it with the real path of the packages folder.
  const outside = relative(top, existsSync(packagesDir) ? realpathSync(packagesDir) : packagesDir);
  if (outside.startsWith('..') || isAbsolute(outside)) return { kind: 'outside-repository', top };
  return { kind: 'located', top, packagesDir };
}

/**
 * The release `eventry version` makes: for each group package, diffs the catalogue at its last release
 * (a git tag `<scope>/<slug>@<version>`, else the commit that last changed the version recorded in its
 * package.json) with the work tree, and gives the bumped `version` and a CHANGELOG.md entry; the
 * catalogue's `version:` takes the largest bump. The target is computed from the release, not from
 * what is recorded now, so a second run finds everything in place and writes nothing. Reads only:
 * the caller writes `writes`.
 */
export function planVersions(
  at: GitPlace,
  catalogueDir: string,
  folders: { top: string; packagesDir: string },
  /** How the catalogue and its releases load (the CLI passes a memo: they share most files). */
  load?: LoadOptions,
): VersionRun {
  const current = directorySource.resolve(catalogueDir, {
    cwd: at.cwd,
    env: at.env,
    catalogue: catalogueDir,
    ...(load ? { load } : {}),
  });
  if (!current.ok) {
    if (current.reason === 'problems')
      return { kind: 'problems', problems: current.problems, root: current.root };
    return { kind: 'unreadable', message: current.message };
  }
  const now = current.source.catalogue;
  const released = releasedCatalogues(at, catalogueDir, now, load);
  const packages: PackageVersion[] = [];
  const writes: FileWrite[] = [];
  const bumps: { bump: Bump; release: Release }[] = [];
  for (const group of now.groups) {
    const planned = planPackage({ at, folders, now, released, writes, bumps }, group);
    if (planned.kind === 'release-problem') return planned;
    packages.push(planned);
  }
  const configPath = resolve(at.cwd, catalogueDir, CONFIG_FILE);
  const catalogue = planCatalogueVersion(configPath, bumps, released.at, writes);
  return { kind: 'planned', packages, catalogue, writes };
}

/** The catalogue at each release commit and its findings since then, each loaded and diffed once. */
interface ReleasedCatalogues {
  /** The catalogue at `commit`; undefined when it does not load there. */
  at(commit: string): Catalogue | undefined;
  /** The findings from the catalogue at `commit` (`base`) to the work tree's. */
  findingsSince(commit: string, base: Catalogue): Finding[];
}

function releasedCatalogues(
  { cwd, env }: GitPlace,
  catalogueDir: string,
  now: Catalogue,
  load: LoadOptions | undefined,
): ReleasedCatalogues {
  const bases = new Map<string, Catalogue | undefined>();
  // Packages released together share a release commit: the whole catalogue is diffed once per
  // release, and each package takes its group's findings from that one diff.
  const diffs = new Map<string, Finding[]>();
  return {
    at(commit) {
      if (!bases.has(commit)) {
        const result = gitSource.resolve(commit, {
          cwd,
          env,
          catalogue: catalogueDir,
          ...(load ? { load } : {}),
        });
        bases.set(commit, result.ok ? result.source.catalogue : undefined);
      }
      return bases.get(commit);
    },
    findingsSince(commit, base) {
      let findings = diffs.get(commit);
      if (!findings) {
        findings = compareCatalogues(base, now);
        diffs.set(commit, findings);
      }
      return findings;
    },
  };
}

/** What planning one package reads, and where it adds the files to write and its bump. */
interface PackagePlanning {
  at: GitPlace;
  folders: { top: string; packagesDir: string };
  now: Catalogue;
  released: ReleasedCatalogues;
  writes: FileWrite[];
  bumps: { bump: Bump; release: Release }[];
}

/** One group package's version: its last release, the bump its findings since call for, its files. */
function planPackage(
  planning: PackagePlanning,
  group: Group,
): PackageVersion | Extract<VersionRun, { kind: 'release-problem' }> {
  const { at, folders, now, released } = planning;
  const name = groupPackageName(now, group);
  const manifest = join(folders.packagesDir, group.slug, 'package.json');
  if (!existsSync(manifest)) return { kind: 'unbuilt', name, manifest: posixRelative(at.cwd, manifest) };
  const found = findLastRelease(at, {
    kind: 'package',
    name,
    manifestPath: posixRelative(folders.top, manifest),
  });
  if (!found.ok) return { kind: 'release-problem', ...found.problem };
  const release = found.value;
  if (!release) return { kind: 'never-released', name };
  const base = released.at(release.commit);
  if (!base) return { kind: 'base-unloadable', name, release };
  const findings = released
    .findingsSince(release.commit, base)
    .filter((finding) => finding.group === group.slug);
  const bump = bumpFor(findings);
  if (bump === 'none') return { kind: 'unchanged', name, release };
  planning.bumps.push({ bump, release });
  return bumpPackage(name, manifest, { release, bump, findings }, planning.writes);
}

/**
 * A changed package's target version: `ahead` when its package.json already records a later one, else
 * its package.json and CHANGELOG.md as they are to be (added to `writes` unless already so).
 */
function bumpPackage(
  name: string,
  manifest: string,
  { release, bump, findings }: { release: Release; bump: Bump; findings: Finding[] },
  writes: FileWrite[],
): PackageVersion {
  const target = applyBump(release.version, bump);
  const manifestText = readFileSync(manifest, 'utf8');
  const recorded = packageVersion(manifestText);
  if (recorded && semverValid(recorded) && semverGt(recorded, target))
    return { kind: 'ahead', name, release, bump, target, recorded };
  const files: string[] = [];
  if (recorded !== target) {
    writes.push({ path: manifest, contents: withVersion(manifestText, target) });
    files.push('package.json');
  }
  const changelogPath = join(dirname(manifest), 'CHANGELOG.md');
  const changelog = prependChangelog(
    readIfExists(changelogPath),
    name,
    target,
    changelogEntry(target, bump, findings),
  );
  if (changelog !== undefined) {
    writes.push({ path: changelogPath, contents: changelog });
    files.push('CHANGELOG.md');
  }
  return { kind: 'bumped', name, release, bump, target, files };
}

/** Bumps `version` in eventry.config.yaml by the largest package bump, from the released catalogue's. */
function planCatalogueVersion(
  path: string,
  bumps: readonly { bump: Bump; release: Release }[],
  baseAt: (commit: string) => Catalogue | undefined,
  writes: FileWrite[],
): CatalogueVersion {
  const largest = bumps.reduce<Bump>((bump, entry) => maxBump(bump, entry.bump), 'none');
  if (largest === 'none') return { kind: 'unchanged' };
  const { release } = bumps.find((entry) => entry.bump === largest)!;
  const from = baseAt(release.commit)!.config.version;
  const target = applyBump(from, largest);
  const config = readUserFile(dirname(path), CONFIG_FILE);
  const edited = config.ok ? setConfigVersion(config.text, target) : undefined;
  if (!edited) return { kind: 'no-version-line' };
  const { recorded } = edited;
  if (semverValid(recorded) && !semverGt(target, recorded))
    return { kind: 'in-place', recorded, bump: largest, from };
  writes.push({ path, contents: edited.text });
  return { kind: 'bumped', from, target, bump: largest };
}

/** The package.json text with only `version` changed (key order and indent kept). */
function withVersion(text: string, version: string): string {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  manifest.version = version;
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  return `${JSON.stringify(manifest, null, indent)}\n`;
}

/** `path` relative to `from`, `/`-separated (a repo path for git, a path to show the user). */
function posixRelative(from: string, path: string): string {
  return relative(from, path).split(sep).join('/');
}
