import type { Catalogue } from '../model.js';
import type { History } from '../schema-registry/history.js';
import { type SiteHistory, siteHistory } from './history.js';
import { type BuiltPackage, type DocsProblem, isProblem, openBuiltPackage } from './package-files.js';
import { SiteOutput, type SiteSink } from './site-context.js';
import {
  writeChangelogPages,
  writeSearchPages,
  writeShapePages,
  writeTeamPages,
} from './site-index-pages.js';
import { writeAssets, writeMigrationModules, writeRunTimes, writeValidatorModules } from './site-modules.js';
import { writeEventPages, writeGroupPages, writeHomePage } from './site-pages.js';
import { versionsByType } from './versions.js';

/**
 * The docs portal: a static site generated from the model, the release history and the built group
 * packages. Pages are handed to `emit` one by one as they are rendered (never all held at once), so a
 * 10,000-event catalogue is written in bounded memory.
 */

/** What the site is generated from. */
export interface SiteInput {
  catalogue: Catalogue;
  /** The release history (per-field history and changelogs); none: every event counts as unreleased. */
  history?: History;
  /** The folder `eventry build` wrote the group packages into. */
  packagesDir: string;
}

/** What was written, or the problems that stopped it (nothing useful was written then). */
export type SiteResult = { ok: true; pages: number; files: number } | { ok: false; problems: DocsProblem[] };

/**
 * Generates the whole site into `emit`: the assets and the packages' modules first (a problem there
 * writes no page), then the pages.
 */
export async function generateSite(input: SiteInput, emit: SiteSink): Promise<SiteResult> {
  const { catalogue } = input;
  const packages = openPackages(input);
  if (!(packages instanceof Map)) return { ok: false, problems: packages };
  const history: SiteHistory = input.history
    ? siteHistory(input.history)
    : { releases: [], fields: new Map() };
  const site = { catalogue, packages, history, out: new SiteOutput(emit), problems: [] as DocsProblem[] };

  await writeAssets(site);
  await writeRunTimes(site);
  await writeValidatorModules(site);
  await writeMigrationModules(site);
  if (site.problems.length > 0) return { ok: false, problems: site.problems };

  await writeHomePage(site);
  const byType = versionsByType(catalogue);
  await writeGroupPages(site, byType);
  const usedBy = await writeEventPages(site, byType);
  await writeShapePages(site, usedBy);
  await writeChangelogPages(site);
  await writeTeamPages(site);
  await writeSearchPages(site);
  if (site.problems.length > 0) return { ok: false, problems: site.problems };
  return { ok: true, pages: site.out.pages, files: site.out.files };
}

/** Each group's built package by slug, or the problems of those that are missing or broken. */
function openPackages(input: SiteInput): Map<string, BuiltPackage> | DocsProblem[] {
  const problems: DocsProblem[] = [];
  const packages = new Map<string, BuiltPackage>();
  for (const group of input.catalogue.groups) {
    const pkg = openBuiltPackage(input.packagesDir, group);
    if (isProblem(pkg)) problems.push(pkg);
    else packages.set(group.slug, pkg);
  }
  return problems.length > 0 ? problems : packages;
}
