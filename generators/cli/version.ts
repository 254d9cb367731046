import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import semverGt from 'semver/functions/gt.js';
import semverValid from 'semver/functions/valid.js';
import { compareCatalogues } from '../diff/index.js';
import type { Finding } from '../diff/rule.js';
import { STATE_FILE } from '../execute/fast/state.js';
import { checkBuildOutput } from '../execute/output-folder.js';
import { writeOutputs } from '../execute/write.js';
import { CONFIG_FILE, formatProblem } from '../load/index.js';
import { type Catalogue, groupPackageName } from '../model.js';
import { describeRelease, findLastRelease } from '../release/base.js';
import { changelogEntry, prependChangelog } from '../release/changelog.js';
import { setConfigVersion } from '../release/config-version.js';
import type { Release } from '../release/last-release.js';
import { applyBump, type Bump, bumpFor, maxBump } from '../release/semver.js';
import { EXIT_USAGE } from '../shared/exit-codes.js';
import { readIfExists } from '../shared/fs.js';
import { directorySource } from '../sources/folder.js';
import { gitSource, repoRoot } from '../sources/git.js';
import { packageVersion } from '../sources/source.js';

/** Where `eventry docs` writes the portal by default (relative to the working folder). */
const DOCS_SITE = join('.eventry', 'site');

/** Options of `eventry version`. */
export interface VersionCommandOptions {
  catalogue?: string;
  /** The packages folder (`packages`). */
  out?: string;
  dryRun?: boolean;
  cwd?: string;
}

/** What `eventry version` decided for one package. */
export interface VersionPlan {
  name: string;
  slug: string;
  release?: Release;
  bump: Bump;
  /** The version the package should have; undefined when it keeps its own. */
  target?: string;
  findings: Finding[];
  note?: string;
}

/**
 * `eventry version`: for each group package, diffs the catalogue at its last release (a git tag
 * `<scope>/<slug>@<version>`, else the commit that last changed the version recorded in its
 * package.json) with the work tree, writes the bumped `version` and prepends a CHANGELOG.md entry;
 * then rebuilds the packages folder (when `eventry build` made it), whose documents carry the
 * catalogue version.
 * The target is computed from the release, not from what is recorded now, so a second run finds
 * everything in place and writes nothing.
 */
export async function runVersion(options: VersionCommandOptions = {}): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  const catalogueDir = options.catalogue ?? 'catalogue';
  const packagesDir = resolve(cwd, options.out ?? 'packages');
  const top = repoRoot(cwd);
  if (!top) {
    process.stderr.write('eventry version: not inside a git repository; releases are found through git.\n');
    return EXIT_USAGE;
  }
  // git reports the repository's real path: compare it with the real path of the packages folder.
  const outside = relative(top, existsSync(packagesDir) ? realpathSync(packagesDir) : packagesDir);
  if (outside.startsWith('..') || isAbsolute(outside)) {
    process.stderr.write(
      `eventry version: --out ${options.out} is outside the git repository ${top}: a package's last ` +
        'release is found in the git history of its package.json, so the packages folder must be ' +
        'inside the repository.\n',
    );
    return EXIT_USAGE;
  }
  // When it ends with a build (the folder has a build state), the build's rule, checked before any
  // CHANGELOG.md is written: a refused build must not follow half a release.
  const refused = existsSync(join(packagesDir, STATE_FILE))
    ? checkBuildOutput(options.out ?? 'packages', packagesDir, resolve(cwd, catalogueDir))
    : undefined;
  if (refused) {
    process.stderr.write(`eventry version: error ${refused.code}: ${refused.message}\n`);
    return EXIT_USAGE;
  }
  const current = directorySource.resolve(catalogueDir, { cwd, catalogue: catalogueDir });
  if (!current.ok) {
    if (current.reason === 'problems') {
      for (const problem of current.problems)
        process.stderr.write(`${formatProblem(problem, current.root)}\n`);
      return 1;
    }
    process.stderr.write(`eventry version: ${current.message}\n`);
    return EXIT_USAGE;
  }
  const now = current.source.catalogue;
  const bases = new Map<string, Catalogue | undefined>();
  const baseAt = (commit: string): Catalogue | undefined => {
    if (!bases.has(commit)) {
      const result = gitSource.resolve(commit, { cwd, catalogue: catalogueDir });
      bases.set(commit, result.ok ? result.source.catalogue : undefined);
    }
    return bases.get(commit);
  };

  // Packages released together share a release commit: the whole catalogue is diffed once per
  // release, and each package takes its group's findings from that one diff.
  const diffs = new Map<string, Finding[]>();
  const findingsSince = (commit: string, base: Catalogue): Finding[] => {
    let findings = diffs.get(commit);
    if (!findings) {
      findings = compareCatalogues(base, now);
      diffs.set(commit, findings);
    }
    return findings;
  };

  const plans: VersionPlan[] = [];
  for (const group of now.groups) {
    const name = groupPackageName(now, group);
    const manifest = join(packagesDir, group.slug, 'package.json');
    const plan: VersionPlan = { name, slug: group.slug, bump: 'none', findings: [] };
    plans.push(plan);
    if (!existsSync(manifest)) {
      plan.note = `no ${posixRelative(cwd, manifest)}: run \`npm run build\` first`;
      continue;
    }
    const found = findLastRelease(cwd, { kind: 'package', name, manifestPath: posixRelative(top, manifest) });
    if (!found.ok) {
      process.stderr.write(`eventry version: error ${found.problem.code}: ${found.problem.message}\n`);
      return EXIT_USAGE;
    }
    const release = found.value;
    if (!release) {
      plan.note = 'never released: keeps its version';
      continue;
    }
    plan.release = release;
    const base = baseAt(release.commit);
    if (!base) {
      plan.note = `no loadable catalogue at ${describeRelease(release)}`;
      continue;
    }
    plan.findings = findingsSince(release.commit, base).filter((finding) => finding.group === group.slug);
    plan.bump = bumpFor(plan.findings);
    if (plan.bump !== 'none') plan.target = applyBump(release.version, plan.bump);
  }

  const lines: string[] = [];
  for (const plan of plans) {
    const manifest = join(packagesDir, plan.slug, 'package.json');
    if (!plan.target || !plan.release) {
      lines.push(
        `${plan.name}: ${plan.note ?? `unchanged since ${plan.release ? describeRelease(plan.release) : ''}`}`,
      );
      continue;
    }
    const manifestText = readFileSync(manifest, 'utf8');
    const recorded = packageVersion(manifestText);
    if (recorded && semverValid(recorded) && semverGt(recorded, plan.target)) {
      lines.push(
        `${plan.name}: records ${recorded}, past ${plan.target} (${plan.bump} since ${describeRelease(plan.release)}); left alone`,
      );
      continue;
    }
    const wrote: string[] = [];
    if (recorded !== plan.target) {
      if (!options.dryRun) writeAtomically(manifest, withVersion(manifestText, plan.target));
      wrote.push('package.json');
    }
    const changelogPath = join(dirname(manifest), 'CHANGELOG.md');
    const changelog = prependChangelog(
      readIfExists(changelogPath),
      plan.name,
      plan.target,
      changelogEntry(plan.target, plan.bump, plan.findings),
    );
    if (changelog !== undefined) {
      if (!options.dryRun) writeAtomically(changelogPath, changelog);
      wrote.push('CHANGELOG.md');
    }
    const action =
      wrote.length > 0 ? `${options.dryRun ? 'would write' : 'wrote'} ${wrote.join(', ')}` : 'already done';
    lines.push(
      `${plan.name}: ${plan.release.version} → ${plan.target} (${plan.bump} since ${describeRelease(plan.release)}; ${action})`,
    );
  }

  const catalogueLine = bumpCatalogueVersion(cwd, catalogueDir, plans, baseAt, options.dryRun === true);
  lines.push(catalogueLine);
  process.stdout.write(`${lines.join('\n')}\n`);
  // The catalogue version is in the built documents: rebuild now, so that `npm run build` and CI's
  // freshness check find nothing left to do. Only a folder `eventry build` made is rebuilt.
  if (options.dryRun || !/ → /.test(catalogueLine)) return 0;
  if (existsSync(join(packagesDir, STATE_FILE))) {
    const { runBuild } = await import('./build.js');
    const built = await runBuild({ catalogue: resolve(cwd, catalogueDir), out: packagesDir });
    if (built !== 0) return built;
  }
  // The docs portal names the catalogue version and its releases: a portal `eventry docs` wrote is
  // written again, so it shows the release being made rather than the last one.
  if (existsSync(resolve(cwd, DOCS_SITE))) {
    const { runDocs } = await import('./docs.js');
    return runDocs({ cwd, catalogue: catalogueDir, out: DOCS_SITE, packages: packagesDir });
  }
  return 0;
}

/** Bumps `version` in eventry.config.yaml by the largest package bump, from the released catalogue's. */
function bumpCatalogueVersion(
  cwd: string,
  catalogueDir: string,
  plans: readonly VersionPlan[],
  baseAt: (commit: string) => Catalogue | undefined,
  dryRun: boolean,
): string {
  const largest = plans.reduce<Bump>((bump, plan) => maxBump(bump, plan.bump), 'none');
  if (largest === 'none') return 'catalogue version: unchanged';
  const plan = plans.find((candidate) => candidate.bump === largest)!;
  const from = baseAt(plan.release!.commit)!.config.version;
  const target = applyBump(from, largest);
  const path = resolve(cwd, catalogueDir, CONFIG_FILE);
  const edited = setConfigVersion(readFileSync(path, 'utf8'), target);
  if (!edited) return `catalogue version: no top-level \`version:\` line in ${CONFIG_FILE}; left alone`;
  const { recorded } = edited;
  if (semverValid(recorded) && !semverGt(target, recorded))
    return `catalogue version: ${recorded} (${largest} since ${from}: in place)`;
  if (!dryRun) writeAtomically(path, edited.text);
  return `catalogue version: ${from} → ${target} (${largest}; ${dryRun ? 'would write' : 'wrote'} ${CONFIG_FILE})`;
}

/** The package.json text with only `version` changed (key order and indent kept). */
export function withVersion(text: string, version: string): string {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  manifest.version = version;
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  return `${JSON.stringify(manifest, null, indent)}\n`;
}

/** Replaces one file atomically, through the build's single writer. */
function writeAtomically(path: string, contents: string): void {
  writeOutputs(dirname(path), [{ path: basename(path), contents }]);
}

/** `path` relative to `from`, `/`-separated (a repo path for git, a path to show the user). */
function posixRelative(from: string, path: string): string {
  return relative(from, path).split(sep).join('/');
}
