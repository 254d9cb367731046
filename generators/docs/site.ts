import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Catalogue, Group } from '../model.js';
import type { History } from '../schema-registry/history.js';
import { BROWSER_CLASSIC, BROWSER_MODULES, browserAssetsDir } from './browser-assets.js';
import { hasText, withColumns } from './columns.js';
import { eventPageData, findingsData } from './event-page.js';
import { fieldColumns, fieldRows } from './fields.js';
import { type SiteHistory, siteHistory } from './history.js';
import { eventMarkdown, llmsTxt } from './markdown.js';
import {
  type BuiltPackage,
  type DocsProblem,
  interfaceText,
  isProblem,
  openBuiltPackage,
  readChunkModule,
  readExamples,
  readValidatorModule,
  VENDORED,
  vendoredModule,
} from './package-files.js';
import { docsSourceDir, type Navigation, renderPage } from './render.js';
import { searchIndexJson } from './search.js';
import { teamPages } from './teams.js';
import { versionComparisons, versionsByType } from './versions.js';

/**
 * The docs portal: a static site generated from the model, the release history and the built group
 * packages. Pages are handed to `emit` one by one as they are rendered (never all held at once), so a
 * 10,000-event catalogue is written in bounded memory.
 */

/**
 * What a site file holds: its content, or `copyOf` a file whose bytes it has unchanged (a validator
 * module of a built package), which a writer may hard-link rather than copy (10,000 of them at 10k).
 */
export type SiteContent = string | Buffer | { copyOf: string };

/** Where a page or asset goes (path relative to the site root, `/`-separated) and what it holds. */
export type SiteSink = (path: string, content: SiteContent) => void | Promise<void>;

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

/** Static assets copied from generators/docs/assets/. */
const ASSETS = ['site.css', 'favicon.svg'];
/** Changelog pages list this many added events; the group pages list them all. */
const LIST_CAP = 500;

/** Up to this many groups, every page lists them all in its side navigation; past it, only its own. */
const NAV_GROUPS = 100;

/** The side navigation of a page in `group` (undefined: a page of the whole catalogue), at event `key`. */
function navigation(catalogue: Catalogue, group?: Group, key?: string): Navigation {
  const all = catalogue.groups.length <= NAV_GROUPS;
  const groups = (all ? catalogue.groups : group ? [group] : []).map((g) => ({
    slug: g.slug,
    title: g.title,
    current: g.slug === group?.slug,
  }));
  return {
    groups,
    events: group?.events ?? [],
    ...(key ? { key } : {}),
    ...(all ? {} : { more: catalogue.groups.length }),
    ...(catalogue.ownership ? { teams: true } : {}),
  };
}

/** The first sentence (or line) of a text, for lists. */
function summary(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const line = text.split('\n')[0]!;
  const stop = line.search(/\.(\s|$)/);
  return stop >= 0 ? line.slice(0, stop + 1) : line;
}

/** Generates the whole site into `emit`. */
export async function generateSite(input: SiteInput, emit: SiteSink): Promise<SiteResult> {
  const { catalogue } = input;
  const problems: DocsProblem[] = [];
  const packages = new Map<string, BuiltPackage>();
  for (const group of catalogue.groups) {
    const pkg = openBuiltPackage(input.packagesDir, group);
    if (isProblem(pkg)) problems.push(pkg);
    else packages.set(group.slug, pkg);
  }
  if (problems.length > 0) return { ok: false, problems };

  const history: SiteHistory = input.history
    ? siteHistory(input.history)
    : { releases: [], fields: new Map() };
  const site = catalogue.config.title;
  let pages = 0;
  let files = 0;
  // Awaited: a sink that writes asynchronously holds the generator back while its queue is full.
  const page = async (path: string, html: string) => {
    await emit(path, html);
    pages++;
  };
  const file = async (path: string, content: SiteContent) => {
    await emit(path, content);
    files++;
  };

  for (const name of ASSETS)
    await file(`assets/${name}`, readFileSync(join(docsSourceDir(), 'assets', name)));
  for (const name of [...BROWSER_MODULES, BROWSER_CLASSIC])
    await file(`assets/${name}`, readFileSync(join(browserAssetsDir(), name)));
  await file('assets/minisearch.js', readFileSync(minisearchBrowserBuild()));
  await file('assets/search-index.json', searchIndexJson(catalogue));
  for (const [slug, pkg] of packages) {
    for (const module of pkg.runtime) await file(`pkg/${slug}/${module.name}`, module.text);
    // The playground's random payloads: the run time's `testing.js` imports `./runtime.js` and
    // `./testing-values.js`, which sit beside it here as in the run time package.
    if (pkg.testing) {
      await file(`pkg/${slug}/runtime-testing.js`, pkg.testing.runtime);
      await file(`pkg/${slug}/testing-values.js`, pkg.testing.values);
      await file(`pkg/${slug}/testing-data.js`, pkg.testing.data);
    }
  }
  // Streamed one by one (10,000 validators would not fit in memory at once). A problem found here
  // still writes nothing: the caller discards the staging folder of a result that is not ok.
  const vendored = new Set<string>();
  for (const group of catalogue.groups) {
    const pkg = packages.get(group.slug)!;
    // The chunks that hold the validators, each shipped once, beside the events that import them.
    const chunks = new Set<string>();
    for (const key of group.events) {
      const module = readValidatorModule(pkg, key);
      if (isProblem(module)) {
        problems.push(module);
        continue;
      }
      for (const specifier of module.vendored) vendored.add(specifier);
      for (const chunk of module.chunks) chunks.add(chunk);
      // Unchanged (only chunks are imported): hard-linked rather than copied.
      await file(
        `pkg/${group.slug}/events/${key}.js`,
        module.unchanged ? { copyOf: module.file } : module.text,
      );
    }
    for (const path of chunks) {
      const module = readChunkModule(pkg, path);
      if (isProblem(module)) {
        problems.push(module);
        continue;
      }
      for (const specifier of module.vendored) vendored.add(specifier);
      await file(`pkg/${group.slug}/${path}`, module.unchanged ? { copyOf: module.file } : module.text);
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  for (const specifier of vendored) await file(VENDORED.get(specifier)!.asset, vendoredModule(specifier));

  const shapeNames = Object.keys(catalogue.shapes).sort();
  await page(
    'index.html',
    renderPage(
      'home',
      { root: './', title: 'Groups', siteTitle: site, nav: navigation(catalogue) },
      {
        title: site,
        version: catalogue.config.version,
        description: catalogue.config.description,
        eventCount: Object.keys(catalogue.events).length,
        shapeCount: shapeNames.length,
        shapes: shapeNames,
        groups: catalogue.groups.map((group) => ({
          slug: group.slug,
          title: group.title,
          description: summary(group.description),
          packageName: packages.get(group.slug)!.name,
          events: group.events.length,
        })),
      },
    ),
  );

  const byType = versionsByType(catalogue);
  for (const group of catalogue.groups) {
    const pkg = packages.get(group.slug)!;
    await page(
      `groups/${group.slug}/index.html`,
      renderPage(
        'group',
        { root: '../../', title: group.title, siteTitle: site, nav: navigation(catalogue, group) },
        withColumns(
          {
            title: group.title,
            description: group.description,
            packageName: pkg.name,
            packageVersion: pkg.version,
            events: group.events.map((key) => {
              const event = catalogue.events[key]!;
              return {
                key,
                ...(event.title === key ? {} : { title: event.title }),
                summary: summary(event.description),
                versions: (byType.get(event.type) ?? [event]).map((other) => ({
                  key: other.key,
                  version: other.version,
                  current: other.key === key,
                })),
                fields: event.fields.length,
                deprecated: event.deprecated !== undefined,
                partial: event.partial !== undefined,
              };
            }),
          },
          'events',
          { description: (event) => hasText(event.summary) },
        ),
      ),
    );
  }

  const usedBy = new Map<string, string[]>();
  const groupsBySlug = new Map(catalogue.groups.map((group) => [group.slug, group]));
  for (const key of Object.keys(catalogue.events).sort()) {
    const event = catalogue.events[key]!;
    const rows = fieldRows(catalogue, event.fields);
    for (const shape of new Set(rows.flatMap((row) => (row.expands ? [row.expands] : [])))) {
      const list = usedBy.get(shape);
      if (list) list.push(key);
      else usedBy.set(shape, [key]);
    }
    const pkg = packages.get(event.group)!;
    const examples = readExamples(pkg, key);
    if (isProblem(examples)) {
      problems.push(examples);
      continue;
    }
    const siblings = byType.get(event.type) ?? [event];
    const comparisons = versionComparisons(catalogue, event, siblings);
    await page(
      `events/${key}/index.html`,
      renderPage(
        'event',
        {
          root: '../../',
          title: key,
          siteTitle: site,
          scripts: ['playground.js'],
          nav: navigation(catalogue, groupsBySlug.get(event.group), key),
        },
        eventPageData(catalogue, event, rows, pkg, examples, comparisons, siblings, history),
      ),
    );
    // The JSON Schema the package ships, for the page's download link.
    await file(`schemas/${key}.json`, { copyOf: join(pkg.dir, 'schemas', `${key}.json`) });
    // The same page as Markdown beside it, for agents that read sites (listed in llms.txt).
    const typescript = interfaceText(pkg, key);
    await file(
      `events/${key}/index.md`,
      eventMarkdown(catalogue, event, { examples, rows, comparisons, ...(typescript ? { typescript } : {}) }),
    );
  }

  for (const name of shapeNames) {
    const shape = catalogue.shapes[name]!;
    const users = usedBy.get(name) ?? [];
    const rows = fieldRows(catalogue, shape.fields);
    await page(
      `shapes/${name}/index.html`,
      renderPage(
        'shape',
        { root: '../../', title: `Shape ${name}`, siteTitle: site, nav: navigation(catalogue) },
        {
          name,
          description: shape.description,
          extends: shape.extends,
          rows,
          columns: fieldColumns(rows),
          usedBy: users.slice(0, LIST_CAP),
          moreUsers: Math.max(0, users.length - LIST_CAP),
        },
      ),
    );
  }

  await page(
    'shapes/index.html',
    renderPage(
      'shapes',
      { root: '../', title: 'Shapes', siteTitle: site, nav: navigation(catalogue) },
      withColumns(
        {
          shapes: shapeNames.map((name) => ({
            name,
            description: summary(catalogue.shapes[name]!.description),
            fields: catalogue.shapes[name]!.fields.length,
            usedBy: (usedBy.get(name) ?? []).length,
          })),
        },
        'shapes',
        { description: (shape) => hasText(shape.description) },
      ),
    ),
  );

  await page(
    'changelog/index.html',
    renderPage(
      'changelog-index',
      { root: '../', title: 'Changelog', siteTitle: site, nav: navigation(catalogue) },
      {
        releases: [...history.releases].reverse().map((release) => ({
          version: release.version,
          slug: release.slug,
          added: release.added.length,
          changed: release.changed.size,
          removed: release.removed.length,
        })),
      },
    ),
  );
  for (const release of history.releases) {
    await page(
      `changelog/${release.slug}/index.html`,
      renderPage(
        'changelog',
        { root: '../../', title: `Release ${release.version}`, siteTitle: site, nav: navigation(catalogue) },
        {
          version: release.version,
          commit: release.commit,
          added: release.added.slice(0, LIST_CAP),
          addedCount: release.added.length,
          moreAdded: Math.max(0, release.added.length - LIST_CAP),
          removed: release.removed,
          changed: [...release.changed].map(([key, findings]) => ({ key, findings: findingsData(findings) })),
        },
      ),
    );
  }

  if (catalogue.ownership) {
    const teams = teamPages(catalogue);
    const frame = (root: string, title: string) => ({
      root,
      title,
      siteTitle: site,
      nav: navigation(catalogue),
    });
    await page('teams/index.html', renderPage('teams', frame('../', 'Teams'), { teams }));
    for (const team of teams)
      await page(`teams/${team.id}/index.html`, renderPage('team', frame('../../', team.name), team));
  }

  await file('llms.txt', llmsTxt(catalogue));
  await page(
    'search/index.html',
    renderPage(
      'search',
      { root: '../', title: 'Search', siteTitle: site, scripts: ['search.js'], nav: navigation(catalogue) },
      {},
    ),
  );
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, pages, files };
}
/** MiniSearch's ES module build, shipped as a local asset (no CDN). */
function minisearchBrowserBuild(): string {
  return createRequire(import.meta.url)
    .resolve('minisearch')
    .replace(/[/\\]cjs[/\\]index\.cjs$/, '/es/index.js');
}
