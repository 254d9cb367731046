import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

/**
 * The site's templates (generators/docs/templates/*.hbs), rendered with Handlebars' HTML escaping on:
 * every catalogue text goes through `{{ }}`; the one raw slot is the page body the layout wraps, itself
 * rendered here.
 */

const handlebars = Handlebars.create();

/** HTML-escapes a text, then shows its `code` spans (diff findings and changelogs are written that way). */
function inlineCode(text: unknown): Handlebars.SafeString {
  const parts = String(text ?? '').split('`');
  // Odd parts sit between backticks; an unpaired last backtick stays text.
  const html = parts.map((part, i) => {
    const escaped = handlebars.Utils.escapeExpression(part);
    if (i % 2 === 0) return escaped;
    return i === parts.length - 1 ? `&#x60;${escaped}` : `<code>${escaped}</code>`;
  });
  return new handlebars.SafeString(html.join(''));
}

/**
 * HTML-escapes a dotted name (an event key, a field name) and marks a break opportunity (`<wbr>`) after
 * each `.`, `_` and `-`: a narrow column wraps it between its parts, never inside a word.
 */
function breakable(text: unknown): Handlebars.SafeString {
  const escaped = handlebars.Utils.escapeExpression(String(text ?? ''));
  return new handlebars.SafeString(escaped.replace(/([._-])(?=[^._-])/g, '$1<wbr>'));
}

handlebars.registerHelper('code', inlineCode);
handlebars.registerHelper('wbr', breakable);
handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value, null, 2));
handlebars.registerHelper('eq', (a: unknown, b: unknown) => a === b);
handlebars.registerHelper(
  'plural',
  (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`,
);

/**
 * The toolkit's `generators/docs/` folder, found upward from this module: the tool runs compiled from
 * `dist/generators/docs/` and vitest from the sources, and tsc copies neither templates nor assets.
 */
export function docsSourceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'generators', 'docs', 'templates');
    if (existsSync(candidate)) return dirname(candidate);
    const parent = dirname(dir);
    if (parent === dir) throw new Error('eventry: cannot find generators/docs/templates above the toolkit');
    dir = parent;
  }
}

const compiled = new Map<string, Handlebars.TemplateDelegate>();
let partialsLoaded = false;

function template(name: string): Handlebars.TemplateDelegate {
  let found = compiled.get(name);
  if (!found) {
    found = handlebars.compile(readFileSync(join(docsSourceDir(), 'templates', `${name}.hbs`), 'utf8'), {
      strict: true,
    });
    compiled.set(name, found);
  }
  return found;
}

/** Common data of every page. */
export interface PageFrame {
  /** Relative path from the page to the site root (`../../`, or `./` at the root). */
  root: string;
  /** The page title (before the catalogue title). */
  title: string;
  siteTitle: string;
  /** Module scripts below assets/ the page needs besides site.js. */
  scripts?: string[];
  /** The side navigation: the groups, and the events of the page's group (see `navigation` in site.ts). */
  nav?: Navigation;
}

/** What the side navigation shows. */
export interface Navigation {
  groups: { slug: string; title: string; current: boolean }[];
  /** The events of the page's group, when the page belongs to one. */
  events: readonly string[];
  /** The page's event. */
  key?: string;
  /** How many groups there are, when too many to list on every page. */
  more?: number;
  /** The catalogue defines teams: the top navigation links their index. */
  teams?: boolean;
}

/** Renders `templates/<name>.hbs` with `data` inside the layout. */
export function renderPage(name: string, frame: PageFrame, data: object): string {
  if (!partialsLoaded) {
    for (const partial of ['fields-table', 'findings', 'graph', 'migration-table', 'rules-table']) {
      handlebars.registerPartial(
        partial,
        readFileSync(join(docsSourceDir(), 'templates', `${partial}.hbs`), 'utf8'),
      );
    }
    partialsLoaded = true;
  }
  const body = template(name)({ ...data, root: frame.root });
  return template('layout')({
    ...frame,
    scripts: frame.scripts ?? [],
    nav: frame.nav ?? { groups: [], events: [] },
    body: new handlebars.SafeString(body),
  });
}
