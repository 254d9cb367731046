import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fieldRows } from '../../../generators/docs/fields.js';
import type { Catalogue } from '../../../generators/model.js';
import { type BrowserKind, describeInBrowsers, launchBrowser, setViewportSize } from './browsers.js';
import { NESTED, type PortalServer, servePortalSites } from './portal-helpers.js';

// The issue: at 390 px the fields table broke names letter by letter (`is_/pay/men/t`, six lines for
// `ledger.account.number`), the graph cut event keys (`billing.led…_posted-v1`), "Read by" links broke
// mid-word and the Description column was always empty. Measured here as a reader sees the pages, on a
// phone (390 px) and at a desk (1280 px), in Chromium and Firefox.

// The page functions below run in the browser; this file is type-checked with Node's globals only.
// biome-ignore lint/suspicious/noExplicitAny: the DOM of the page under test
type Dom = any;
declare const document: Dom;
declare const getComputedStyle: Dom;
declare const innerWidth: number;

/** What a reader sees of a page: its width, its names, links and graph labels as drawn, and its tables. */
interface Seen {
  width: number;
  heading: string;
  /** Each field name as its rendered lines, with the share of the table's width its line has. */
  names: { path: string; lines: string[]; room: number }[];
  /** Each link and heading of the content and the side navigation, as its rendered lines. */
  links: { text: string; lines: string[] }[];
  /** Each graph label: its text, the event it links (if any), whether its box holds it, its size in px. */
  labels: { text: string; key: string | null; inside: boolean; px: number }[];
  /** `table: header` for each column whose cells are all empty. */
  emptyColumns: string[];
}

/** Runs in the page: reads the layout (see `Seen`). */
function see(): Seen {
  // An element's text as drawn, one string per line, found from each character's box.
  const drawnLines = (element: Dom): string[] => {
    const lines: string[] = [];
    let line = '';
    let top: number | undefined;
    const walker = document.createTreeWalker(element, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getClientRects()[0];
        if (box && box.width > 0) {
          if (top !== undefined && box.top > top + 4) {
            lines.push(line);
            line = '';
          }
          top = box.top;
        }
        line += node.data[i];
      }
    }
    lines.push(line);
    return lines.filter((l, i) => i === 0 || l.trim() !== '');
  };
  const names = Array.from(document.querySelectorAll('tr[data-field] th[scope=row] code'), (code: Dom) => {
    const row = code.closest('tr');
    const table = code.closest('table').getBoundingClientRect();
    const room =
      (row.querySelector('th').getBoundingClientRect().right - code.getBoundingClientRect().left) /
      table.width;
    return { path: row.getAttribute('data-field'), lines: drawnLines(code), room };
  });
  const links = Array.from(document.querySelectorAll('main a, nav.side a, h1'), (link: Dom) => ({
    text: link.textContent,
    lines: drawnLines(link),
  })).filter((link) => link.text.trim() !== '' && link.text !== '#');
  const labels = Array.from(document.querySelectorAll('text.graph-label'), (text: Dom) => {
    const rect = text.previousElementSibling;
    const box = text.getBBox();
    const [x = 0, y = 0, w = 0, h = 0] = ['x', 'y', 'width', 'height'].map((name) =>
      Number(rect.getAttribute(name)),
    );
    const svg = text.ownerSVGElement;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const href = text.parentElement.getAttribute('href') ?? '';
    return {
      text: text.textContent,
      key: /events\/([^/]+)\//.exec(href)?.[1] ?? null,
      inside: box.x >= x && box.y >= y && box.x + box.width <= x + w && box.y + box.height <= y + h,
      px: Number.parseFloat(getComputedStyle(text).fontSize) * scale,
    };
  });
  const emptyColumns: string[] = [];
  for (const table of document.querySelectorAll('main table')) {
    const headers = Array.from(table.querySelectorAll('thead th'), (th: Dom) => th.textContent.trim());
    headers.forEach((header: string, column: number) => {
      const cells = Array.from(table.querySelectorAll('tbody tr'), (row: Dom) => row.cells[column]);
      if (cells.every((cell: Dom) => !cell || cell.textContent.trim() === ''))
        emptyColumns.push(`${table.className}: ${header}`);
    });
  }
  const heading = document.querySelector('h1').textContent;
  return { width: innerWidth, heading, names, links, labels, emptyColumns };
}

/** Lines that break only between parts: after `.`, `_`, `-`, or at a space. */
function breaksBetweenParts(lines: readonly string[]): boolean {
  return lines.every(
    (line, i) => i === lines.length - 1 || /[._\-\s]$/.test(line) || /^\s/.test(lines[i + 1]!),
  );
}

/** The events whose field names are longest or deepest, the reported one and the nested one. */
function eventSample(catalogue: Catalogue): string[] {
  const score = (key: string) =>
    Math.max(
      ...fieldRows(catalogue, catalogue.events[key]!.fields).map((row) => row.name.length + 2 * row.depth),
    );
  const ranked = Object.keys(catalogue.events).sort((a, b) => score(b) - score(a) || a.localeCompare(b));
  return [...new Set(['billing.ledger.entry_posted-v2', NESTED, ...ranked.slice(0, 10)])];
}

let server: PortalServer | undefined;
let catalogue: Catalogue;

async function startSite(): Promise<void> {
  if (server) return;
  // The sites every portal suite shares, built once per run; this suite reads the repository's at `/`.
  ({ server, catalogue } = await servePortalSites());
}

afterAll(() => server?.close());

/** Reads a page of the served site at a window width. */
type Read = (width: number, path: string) => Promise<Seen>;

/**
 * Field names of the sampled events drawn on more lines than `width` allows (2 on a phone, 1 on a desk),
 * broken inside a word, or on a phone left under 75 % of the table's width.
 */
async function longFieldNames(read: Read, width: number): Promise<string[]> {
  const long: string[] = [];
  for (const key of eventSample(catalogue)) {
    const seen = await read(width, `/events/${key}/index.html`);
    expect(seen.names.length, key).toBe(fieldRows(catalogue, catalogue.events[key]!.fields).length);
    const phone = width < 500;
    for (const field of seen.names)
      if (
        field.lines.length > (phone ? 2 : 1) ||
        !breaksBetweenParts(field.lines) ||
        (phone && field.room < 0.75)
      )
        long.push(`${key} ${field.path}: ${field.lines.join(' / ')} (${Math.round(field.room * 100)}% wide)`);
  }
  return long;
}

/** Graph labels, at 390 px and at a desk, that are cut, are not the key they link, overflow their box or are drawn too small. */
async function badGraphLabels(read: Read): Promise<string[]> {
  const bad: string[] = [];
  const teams = Object.keys(catalogue.ownership!.teams);
  const pages = [
    '/events/billing.ledger.entry_posted-v2/index.html',
    ...teams.map((id) => `/teams/${id}/index.html`),
  ];
  for (const width of [390, 1280])
    for (const path of pages) {
      const seen = await read(width, path);
      if (path.startsWith('/events/') && !seen.labels.some((label) => label.text === seen.heading))
        bad.push(`${width} ${path}: no label reads ${seen.heading}`);
      for (const label of seen.labels) {
        if (label.text.includes('…') || (label.key !== null && label.text !== label.key))
          bad.push(`${width} ${path}: "${label.text}" for ${label.key}`);
        if (!label.inside) bad.push(`${width} ${path}: "${label.text}" overflows its box`);
        if (label.px < 9.5) bad.push(`${width} ${path}: "${label.text}" drawn at ${label.px.toFixed(1)} px`);
      }
    }
  return bad;
}

/** Links and headings broken inside a word at 390 px (and a check that the "Read by" team links were among them). */
async function brokenLinks(read: Read): Promise<string[]> {
  const broken: string[] = [];
  const teams = Object.values(catalogue.ownership!.teams);
  const pages = [
    '/events/billing.ledger.entry_posted-v2/index.html',
    `/events/${NESTED}/index.html`,
    '/groups/billing/index.html',
    ...teams.map((team) => `/teams/${team.id}/index.html`),
  ];
  let teamLinks = 0;
  for (const path of pages) {
    const seen = await read(390, path);
    teamLinks += seen.links.filter((link) => teams.some((team) => team.name === link.text)).length;
    for (const link of seen.links)
      if (!breaksBetweenParts(link.lines)) broken.push(`${path}: ${link.lines.join(' / ')}`);
  }
  expect(teamLinks).toBeGreaterThan(10);
  return broken;
}

/** Columns whose cells are all empty, on one page of each kind that has a table. */
async function emptyColumns(read: Read): Promise<string[]> {
  const empty: string[] = [];
  const pages = [
    '/events/billing.ledger.entry_posted-v2/index.html',
    `/events/${NESTED}/index.html`,
    '/groups/billing/index.html',
    '/shapes/index.html',
    `/shapes/${Object.keys(catalogue.shapes).sort()[0]}/index.html`,
    '/teams/billing-platform/index.html',
  ];
  for (const path of pages)
    for (const column of (await read(390, path)).emptyColumns) empty.push(`${path} ${column}`);
  return empty;
}

/** The checks, in one browser: the window is sized per page (launched windows are at least 500 px wide). */
function phoneSuite(kind: BrowserKind, path: string) {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await startSite();
    browser = await launchBrowser(kind, path, { width: 390, height: 844 });
    page = (await browser.pages())[0] ?? (await browser.newPage());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  const read: Read = async (width, url) => {
    await setViewportSize(kind, page, { width, height: 844 });
    await page.goto(`${server!.base}${url}`);
    await page.waitForSelector('main h1');
    const seen = await page.evaluate(see);
    expect(seen.width, `${url}: the window is ${width} px wide`).toBe(width);
    return seen;
  };

  it('at 390 px every field name takes at most two lines, broken only between parts, nested or not', async () => {
    expect(await longFieldNames(read, 390)).toEqual([]);
  }, 120_000);

  it('at a desk every field name is on one line', async () => {
    expect(await longFieldNames(read, 1280)).toEqual([]);
  }, 120_000);

  it('the graph draws every label whole, inside its box, and readable at 390 px and at a desk', async () => {
    expect(await badGraphLabels(read)).toEqual([]);
  }, 120_000);

  it('at 390 px no link, key or "Read by" team breaks inside a word', async () => {
    expect(await brokenLinks(read)).toEqual([]);
  }, 120_000);

  it('no table shows a column whose cells are all empty', async () => {
    expect(await emptyColumns(read)).toEqual([]);
  }, 60_000);
}

describeInBrowsers('the portal on a phone and at a desk', phoneSuite);
