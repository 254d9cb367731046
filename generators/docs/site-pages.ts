import { join } from 'node:path';
import type { EventVersion, Group } from '../model.js';
import { hasText, withColumns } from './columns.js';
import { eventPageData } from './event-page.js';
import { type FieldRow, fieldRows } from './fields.js';
import { eventMarkdown } from './markdown.js';
import { interfaceText, isProblem, readExamples } from './package-files.js';
import { renderPage } from './render.js';
import type { SiteContext } from './site-context.js';
import { navigation, summary } from './site-navigation.js';
import { versionComparisons } from './versions.js';

// The pages of the catalogue itself: the home page, a page per group and a page per event version.

/** Every version of each event type, oldest first (`versionsByType`). */
type VersionsByType = Map<string, EventVersion[]>;

/** The home page: the catalogue, its groups and shapes. */
export async function writeHomePage({ catalogue, packages, out }: SiteContext): Promise<void> {
  const site = catalogue.config.title;
  const shapeNames = Object.keys(catalogue.shapes).sort();
  await out.page(
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
}

/** A page per group: its package and its events, each with its versions. */
export async function writeGroupPages(site: SiteContext, byType: VersionsByType): Promise<void> {
  for (const group of site.catalogue.groups) await writeGroupPage(site, group, byType);
}

async function writeGroupPage(
  { catalogue, packages, out }: SiteContext,
  group: Group,
  byType: VersionsByType,
): Promise<void> {
  const pkg = packages.get(group.slug)!;
  await out.page(
    `groups/${group.slug}/index.html`,
    renderPage(
      'group',
      {
        root: '../../',
        title: group.title,
        siteTitle: catalogue.config.title,
        nav: navigation(catalogue, group),
      },
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

/**
 * A page per event version, with its JSON Schema and its Markdown twin beside it; returns the events
 * that use each shape (for the shape pages).
 */
export async function writeEventPages(
  site: SiteContext,
  byType: VersionsByType,
): Promise<Map<string, string[]>> {
  const { catalogue } = site;
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
    await writeEventPage(site, event, rows, groupsBySlug.get(event.group), byType);
  }
  return usedBy;
}

/** One event version's page, its JSON Schema and its Markdown page. */
async function writeEventPage(
  { catalogue, packages, history, out, problems }: SiteContext,
  event: EventVersion,
  rows: FieldRow[],
  group: Group | undefined,
  byType: VersionsByType,
): Promise<void> {
  const { key } = event;
  const pkg = packages.get(event.group)!;
  const examples = readExamples(pkg, key);
  if (isProblem(examples)) {
    problems.push(examples);
    return;
  }
  const siblings = byType.get(event.type) ?? [event];
  const comparisons = versionComparisons(catalogue, event, siblings);
  await out.page(
    `events/${key}/index.html`,
    renderPage(
      'event',
      {
        root: '../../',
        title: key,
        siteTitle: catalogue.config.title,
        scripts: ['playground.js'],
        nav: navigation(catalogue, group, key),
      },
      eventPageData(catalogue, event, rows, pkg, examples, comparisons, siblings, history),
    ),
  );
  // The JSON Schema the package ships, for the page's download link.
  await out.file(`schemas/${key}.json`, { copyOf: join(pkg.dir, 'schemas', `${key}.json`) });
  // The same page as Markdown beside it, for agents that read sites (listed in llms.txt).
  const typescript = interfaceText(pkg, key);
  await out.file(
    `events/${key}/index.md`,
    eventMarkdown(catalogue, event, { examples, rows, comparisons, ...(typescript ? { typescript } : {}) }),
  );
}
