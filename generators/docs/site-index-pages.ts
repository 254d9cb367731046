import { hasText, withColumns } from './columns.js';
import { findingsData } from './event-page.js';
import { fieldColumns, fieldRows } from './fields.js';
import { llmsTxt } from './markdown.js';
import { renderPage } from './render.js';
import type { SiteContext } from './site-context.js';
import { LIST_CAP, navigation, summary } from './site-navigation.js';
import { teamPages } from './teams.js';

// The pages beside the events: the shapes, the changelog, the teams, llms.txt and the search page.

/** A page per shape, with the events that use it (`usedBy`, from the event pages), and their index. */
export async function writeShapePages(
  { catalogue, out }: SiteContext,
  usedBy: Map<string, string[]>,
): Promise<void> {
  const site = catalogue.config.title;
  const shapeNames = Object.keys(catalogue.shapes).sort();
  for (const name of shapeNames) {
    const shape = catalogue.shapes[name]!;
    const users = usedBy.get(name) ?? [];
    const rows = fieldRows(catalogue, shape.fields);
    await out.page(
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
          rules: (shape.rules ?? []).map(({ name, expr, message, attr }) => ({ name, expr, message, attr })),
          usedBy: users.slice(0, LIST_CAP),
          moreUsers: Math.max(0, users.length - LIST_CAP),
        },
      ),
    );
  }
  await out.page(
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
}

/** The changelog: a page per release, newest first in their index. */
export async function writeChangelogPages({ catalogue, history, out }: SiteContext): Promise<void> {
  const site = catalogue.config.title;
  await out.page(
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
    await out.page(
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
}

/** A page per team and their index, when the catalogue declares its ownership. */
export async function writeTeamPages({ catalogue, out }: SiteContext): Promise<void> {
  if (!catalogue.ownership) return;
  const teams = teamPages(catalogue);
  const frame = (root: string, title: string) => ({
    root,
    title,
    siteTitle: catalogue.config.title,
    nav: navigation(catalogue),
  });
  await out.page('teams/index.html', renderPage('teams', frame('../', 'Teams'), { teams }));
  for (const team of teams)
    await out.page(`teams/${team.id}/index.html`, renderPage('team', frame('../../', team.name), team));
}

/** llms.txt (the site's map for agents) and the search page. */
export async function writeSearchPages({ catalogue, out }: SiteContext): Promise<void> {
  await out.file('llms.txt', llmsTxt(catalogue));
  await out.page(
    'search/index.html',
    renderPage(
      'search',
      {
        root: '../',
        title: 'Search',
        siteTitle: catalogue.config.title,
        scripts: ['search.js'],
        nav: navigation(catalogue),
      },
      {},
    ),
  );
}
