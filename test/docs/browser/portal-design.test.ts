import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Catalogue } from '../../../generators/model.js';
import {
  type BrowserKind,
  describeInBrowsers,
  type LaunchOptions,
  launchBrowser,
  openPage,
  setValue,
  setViewportSize,
  textOf,
} from './browsers.js';
import {
  AXE,
  DARK_PAGES,
  NESTED,
  type PortalServer,
  phonePages,
  servePortalSites,
} from './portal-helpers.js';

// The portal as a reader meets it, in Chromium and Firefox under the strict policy: the editor's markers,
// a phone's width, dark mode, the shapes index, search results with fields and snippets, the page weight
// and first paint budgets, and the notice a page opened from a folder gives.

// The page functions below run in the browser; this file is type-checked with Node's globals only.
declare const document: {
  documentElement: { scrollWidth: number };
  body: unknown;
  activeElement: { getAttribute(name: string): string | null } | null;
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
};
declare const window: {
  innerWidth: number;
  axe: { run(options: object): Promise<{ violations: { id: string; impact: string }[] }> };
  getComputedStyle(element: unknown): { backgroundColor: string };
};
declare const performance: { getEntriesByName(name: string): { startTime: number }[] };
declare const PerformanceObserver: new (
  callback: (list: { getEntriesByName(name: string): { startTime: number }[] }) => void,
) => { observe(options: object): void };

describeInBrowsers('docs portal design', designTests);

function designTests(kind: BrowserKind, executablePath: string): void {
  let server: PortalServer;
  let browser: Browser;
  let catalogue: Catalogue;
  let site: string;
  const others: Browser[] = [];

  beforeAll(async () => {
    ({ server, catalogue, site } = await servePortalSites());
    browser = await launchBrowser(kind, executablePath);
  }, 120_000);

  afterAll(async () => {
    for (const other of others) await other.close();
    await browser?.close();
    server?.close();
  });

  /** Another browser of this kind, for a window size or colour scheme set at launch; closed after the suite. */
  async function launchOther(options: LaunchOptions): Promise<Browser> {
    const other = await launchBrowser(kind, executablePath, options);
    others.push(other);
    return other;
  }

  const open = (path: string, inBrowser: Browser = browser) => openPage(inBrowser, `${server.base}${path}`);

  it('the editor marks an error at the nested field its attr names, says why on hover, and the list jumps to it', async () => {
    const { page, errors } = await open(`/events/${NESTED}/index.html`);
    await page.waitForSelector('[data-playground-result][data-state="valid"]');
    const payload = JSON.parse(
      await page.$eval('textarea#payload', (area) => (area as unknown as { value: string }).value),
    ) as Record<string, unknown>;
    const [parent, inner] = Object.entries(payload).find(
      ([, value]) => typeof value === 'object' && value !== null && !Array.isArray(value),
    )!;
    const [child] = Object.entries(inner as Record<string, unknown>).find(
      ([, value]) => typeof value === 'string',
    )!;
    await page.click('textarea#payload');
    await page.waitForSelector('[data-playground][data-editor="ready"]');
    // The textarea stays, hidden and in sync with the editor: text set there reaches the editor.
    const broken = { ...payload, [parent]: { ...(inner as object), [child]: 42 } };
    await setValue(page, 'textarea#payload', JSON.stringify(broken, null, 2));
    const attr = `${parent}.${child}`;
    const item = `[data-playground-errors] button[data-attr="${attr}"]`;
    await page.waitForSelector(item);
    // The editor lives in a shadow root: `pierce/` looks inside it. Changes there are not seen by
    // waitForSelector (it watches the document's own tree), so these waits poll from here.
    const marked = async () => {
      const marks = await page.$$('pierce/.cm-lintRange-error');
      return { marks, texts: await Promise.all(marks.map((mark) => mark.evaluate((m) => m.textContent))) };
    };
    await expect.poll(async () => (await marked()).texts, { timeout: 10_000 }).toContain(`"${child}": 42`);
    const { marks, texts } = await marked();
    // The pointer comes to rest over the mark, as a reader's does: CodeMirror shows the tooltip once the
    // pointer has stayed still for its hover time after moving there.
    const mark = marks[texts.indexOf(`"${child}": 42`)]!;
    await mark.scrollIntoView();
    const box = await mark.boundingBox();
    await page.mouse.move(box!.x + 2, box!.y + box!.height / 2);
    await page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2, { steps: 5 });
    const tooltip = async () =>
      (await page.$('pierce/.cm-tooltip-lint')) ? textOf(page, 'pierce/.cm-tooltip-lint') : '';
    await expect.poll(tooltip, { timeout: 10_000 }).toContain(attr);
    await page.click(item);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('class'))).toContain('editor-host');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('no page is wider than a 390 px phone', async () => {
    const shape = Object.keys(catalogue.shapes).sort()[0]!;
    const wide: string[] = [];
    for (const path of phonePages(shape)) {
      const page = await browser.newPage();
      await setViewportSize(kind, page, { width: 390, height: 844 });
      await page.goto(`${server.base}${path}`);
      // The page is a phone's width: a wider one would pass any page.
      expect(await page.evaluate(() => window.innerWidth)).toBe(390);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) wide.push(`${path}: ${width}px`);
      await page.close();
    }
    expect(wide).toEqual([]);
  }, 120_000);

  it('dark mode follows prefers-color-scheme, with no serious or critical axe-core violation', async () => {
    const dark = await launchOther({ dark: true });
    for (const path of DARK_PAGES) {
      const { page, errors } = await open(path, dark);
      const background = await page.evaluate(() => window.getComputedStyle(document.body).backgroundColor);
      const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
      expect(r! + g! + b!, `${path} background ${background}`).toBeLessThan(120);
      await page.addScriptTag({ url: AXE });
      const { violations } = await page.evaluate(() => window.axe.run({ resultTypes: ['violations'] }));
      expect(
        violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${path}: ${v.id}`),
      ).toEqual([]);
      expect(errors).toEqual([]);
      await page.close();
    }
  }, 120_000);

  it('an event page with a declared consumer shows it and its read fields; a team page has no serious axe violation', async () => {
    const { page } = await open('/events/account.created-v1/index.html');
    const consumer = '.event-aside [data-consumer="billing-platform"]';
    expect(await visible(page, consumer)).toBe(true);
    expect(
      await page.$eval('tr[data-field="account_number"]', (row) => row.getAttribute('data-readers')),
    ).toBe('billing-platform');
    expect(await visible(page, 'figure[data-graph] svg')).toBe(true);
    await Promise.all([page.waitForNavigation(), page.click(`${consumer} a`)]);
    expect(page.url()).toBe(`${server.base}/teams/billing-platform/index.html`);
    await page.addScriptTag({ url: AXE });
    const { violations } = await page.evaluate(() => window.axe.run({ resultTypes: ['violations'] }));
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);
    await page.close();
  });

  it('the shapes index lists every shape with where it is used, and the breadcrumb leads to it', async () => {
    const { page } = await open('/shapes/index.html');
    const names = await page.$$eval('tr[data-shape]', (rows) =>
      rows.map((row) => row.getAttribute('data-shape')),
    );
    expect(names).toEqual(Object.keys(catalogue.shapes).sort());
    const shape = names[0]!;
    await Promise.all([page.waitForNavigation(), page.click(`tr[data-shape="${shape}"] a`)]);
    expect(page.url()).toBe(`${server.base}/shapes/${shape}/index.html`);
    await Promise.all([page.waitForNavigation(), page.click('.crumbs a[href$="shapes/index.html"]')]);
    expect(page.url()).toBe(`${server.base}/shapes/index.html`);
    await page.close();
  });

  it('search shows the matched field and a snippet, and the arrow keys move through the results', async () => {
    const { page, errors } = await open('/search/index.html?q=account_number');
    const first = 'ol[data-search-results] li:first-child';
    await page.waitForSelector(first);
    expect(
      await page.$eval(`${first} [data-search-fields]`, (fields) =>
        fields.getAttribute('data-search-fields'),
      ),
    ).toContain('account_number');
    expect(await page.$eval(`${first} .hit-fields a`, (link) => link.getAttribute('href'))).toMatch(
      /#field-account_number$/,
    );
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-search-hit'))).toBeTruthy();
    // A word of a description: the snippet shows it marked.
    await page.goto(`${server.base}/small/search/index.html?q=created`);
    await page.waitForSelector('[data-search-snippet]');
    expect(await textOf(page, '[data-search-snippet]')).toContain('An account was created.');
    expect(
      await page.$eval('[data-search-snippet]', (snippet) =>
        Array.from((snippet as unknown as typeof document).querySelectorAll('mark'), (m) => m.textContent),
      ),
    ).toEqual(['created.']);
    expect(errors).toEqual([]);
    await page.close();
  });

  // The budgets are the page's, whatever reads it: measured once, in Chromium, whose protocol gives the
  // bodies of every response.
  it.runIf(kind === 'chromium')(
    'an event page with everything it loads stays under 300 KB, and paints first within 500 ms',
    async () => {
      const page = await browser.newPage();
      let bytes = 0;
      const sizes: string[] = [];
      page.on('response', async (response) => {
        const body = await response.buffer().catch(() => Buffer.alloc(0));
        bytes += body.length;
        sizes.push(`${response.url().slice(server.base.length)} ${body.length}`);
      });
      await page.goto(`${server.base}/events/${NESTED}/index.html`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-playground-result][data-state="valid"]');
      expect(bytes, sizes.join('\n')).toBeLessThan(300 * 1024);
      await page.close();
      // The page's first paint, the best of five loads: the budget is the page's, not a busy machine's.
      const paints: number[] = [];
      for (let i = 0; i < 5; i++) {
        const fresh = await browser.newPage();
        await fresh.bringToFront();
        await fresh.goto(`${server.base}/events/${NESTED}/index.html`, { waitUntil: 'load' });
        paints.push(await firstPaint(fresh));
        await fresh.close();
      }
      expect(Math.min(...paints), paints.join(', ')).toBeLessThan(500);
    },
  );

  it('a page opened from a folder says at once how to serve the portal', async () => {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(join(site, 'events', NESTED, 'index.html')).href);
    await page.waitForSelector('[data-file-notice]');
    expect(await textOf(page, '[data-file-notice]')).toContain('eventry serve');
    await page.close();
  });
}

/** Whether the element `selector` matches is rendered (it and its ancestors displayed). */
function visible(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (element) => {
    const box = (element as unknown as { getClientRects(): ArrayLike<unknown> }).getClientRects();
    return box.length > 0;
  });
}

/**
 * The page's first contentful paint: its entry once recorded (it can come just after `load`), awaited
 * in the page through an observer rather than polled by a function the policy would refuse.
 */
function firstPaint(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const seen = performance.getEntriesByName('first-contentful-paint')[0];
        if (seen) return resolve(seen.startTime);
        new PerformanceObserver((list) => {
          const entry = list.getEntriesByName('first-contentful-paint')[0];
          if (entry) resolve(entry.startTime);
        }).observe({ type: 'paint', buffered: true });
      }),
  );
}
