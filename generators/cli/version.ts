import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { openLoader, STATE_FILE } from '../execute/fast/loader.js';
import { checkBuildOutput } from '../execute/output-folder.js';
import { writeOutputs } from '../execute/write.js';
import { CONFIG_FILE, formatProblem } from '../load/index.js';
import { describeRelease } from '../release/base.js';
import {
  type CatalogueVersion,
  locateReleaseFolders,
  type PackageVersion,
  planVersions,
} from '../release/version-plan.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import type { Container } from './container.js';

/** Where `eventry docs` writes the portal by default (relative to the working folder). */
const DOCS_SITE = join('.eventry', 'site');

/** Options of `eventry version`. */
export interface VersionCommandOptions {
  catalogue?: string;
  /** The packages folder (`packages`). */
  out?: string;
  dryRun?: boolean;
}

/**
 * `eventry version`: bumps each group package from the diff since its last release and prepends its
 * CHANGELOG.md (the plan is `release/version-plan.ts`); then rebuilds the packages folder (when
 * `eventry build` made it) and the docs portal (when `eventry docs` wrote one), which carry the
 * catalogue version.
 */
export async function runVersion(options: VersionCommandOptions, io: Container): Promise<ExitStatus> {
  const { cwd } = io;
  const catalogueDir = options.catalogue ?? 'catalogue';
  const folders = locateReleaseFolders(io, options.out ?? 'packages');
  if (folders.kind === 'not-a-repository') {
    io.stderr.write('eventry version: not inside a git repository; releases are found through git.\n');
    return EXIT.usage;
  }
  if (folders.kind === 'outside-repository') {
    io.stderr.write(
      `eventry version: --out ${options.out} is outside the git repository ${folders.top}: a package's last ` +
        'release is found in the git history of its package.json, so the packages folder must be ' +
        'inside the repository.\n',
    );
    return EXIT.usage;
  }
  const { packagesDir } = folders;
  // When it ends with a build (the folder has a build state), the build's rule, checked before any
  // CHANGELOG.md is written: a refused build must not follow half a release.
  const refused = existsSync(join(packagesDir, STATE_FILE))
    ? checkBuildOutput(options.out ?? 'packages', packagesDir, resolve(cwd, catalogueDir), cwd)
    : undefined;
  if (refused) {
    io.stderr.write(`eventry version: error ${refused.code}: ${refused.message}\n`);
    return EXIT.usage;
  }
  // The catalogue and its releases share most files: each parsed once.
  const run = planVersions(io, catalogueDir, folders, { accelerator: openLoader({ memo: true }) });
  if (run.kind === 'problems') {
    for (const problem of run.problems) io.stderr.write(`${formatProblem(problem, run.root)}\n`);
    return EXIT.problems;
  }
  if (run.kind === 'unreadable') {
    io.stderr.write(`eventry version: ${run.message}\n`);
    return EXIT.usage;
  }
  if (run.kind === 'release-problem') {
    io.stderr.write(`eventry version: error ${run.code}: ${run.message}\n`);
    return EXIT.usage;
  }
  const dryRun = options.dryRun === true;
  // Each file replaced atomically, through the build's single writer.
  if (!dryRun)
    for (const { path, contents } of run.writes)
      writeOutputs(dirname(path), [{ path: basename(path), contents }]);
  const lines = run.packages.map((entry) => packageLine(entry, dryRun));
  lines.push(catalogueLine(run.catalogue, dryRun));
  io.stdout.write(`${lines.join('\n')}\n`);
  // The catalogue version is in the built documents: rebuild now, so that `npm run build` and CI's
  // freshness check find nothing left to do. Only a folder `eventry build` made is rebuilt.
  if (dryRun || run.catalogue.kind !== 'bumped') return EXIT.ok;
  if (existsSync(join(packagesDir, STATE_FILE))) {
    const { runBuild } = await import('./build.js');
    const built = await runBuild({ catalogue: resolve(cwd, catalogueDir), out: packagesDir }, io);
    if (built !== EXIT.ok) return built;
  }
  // The docs portal names the catalogue version and its releases: a portal `eventry docs` wrote is
  // written again, so it shows the release being made rather than the last one.
  if (existsSync(resolve(cwd, DOCS_SITE))) {
    const { runDocs } = await import('./docs.js');
    return runDocs({ catalogue: catalogueDir, out: DOCS_SITE, packages: packagesDir }, io);
  }
  return EXIT.ok;
}

/** One package's line of the report. */
function packageLine(entry: PackageVersion, dryRun: boolean): string {
  switch (entry.kind) {
    case 'unbuilt':
      return `${entry.name}: no ${entry.manifest}: run \`npm run build\` first`;
    case 'never-released':
      return `${entry.name}: never released: keeps its version`;
    case 'base-unloadable':
      return `${entry.name}: no loadable catalogue at ${describeRelease(entry.release)}`;
    case 'unchanged':
      return `${entry.name}: unchanged since ${describeRelease(entry.release)}`;
    case 'ahead':
      return `${entry.name}: records ${entry.recorded}, past ${entry.target} (${entry.bump} since ${describeRelease(entry.release)}); left alone`;
    case 'bumped': {
      const action =
        entry.files.length > 0
          ? `${dryRun ? 'would write' : 'wrote'} ${entry.files.join(', ')}`
          : 'already done';
      return `${entry.name}: ${entry.release.version} → ${entry.target} (${entry.bump} since ${describeRelease(entry.release)}; ${action})`;
    }
  }
}

/** The catalogue version's line of the report. */
function catalogueLine(version: CatalogueVersion, dryRun: boolean): string {
  switch (version.kind) {
    case 'unchanged':
      return 'catalogue version: unchanged';
    case 'no-version-line':
      return `catalogue version: no top-level \`version:\` line in ${CONFIG_FILE}; left alone`;
    case 'in-place':
      return `catalogue version: ${version.recorded} (${version.bump} since ${version.from}: in place)`;
    case 'bumped':
      return `catalogue version: ${version.from} → ${version.target} (${version.bump}; ${dryRun ? 'would write' : 'wrote'} ${CONFIG_FILE})`;
  }
}
