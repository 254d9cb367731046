import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Catalogue } from '../../../generators/model.js';
import { describeWithResource, findChromium, launchChromium } from '../../helpers.js';
import {
  AXE,
  DARK_PAGES,
  NESTED,
  type PortalServer,
  phonePages,
  servePortalSites,
} from './portal-helpers.js';

// The portal as a reader meets it, in Chromium under the strict policy: the editor's markers, any screen
// width, dark mode, the shapes index, search results with fields and snippets, the page weight and first
// paint budgets, and the notice a page opened from a folder gives.

// The page functions below run in Chromium; this file is type-checked with Node's globals only.
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  body: unknown;
  activeElement: { getAttribute(name: string): string | null } | null;
};
declare const window: {
  axe: { run(options: object): Promise<{ violations: { id: string; impact: string }[] }> };
  getComputedStyle(element: unknown): { backgroundColor: string };
};
declare const performance: { getEntriesByName(name: string): { startTime: number }[] };

describeWithResource('docs portal design in Chromium', await findChromium(), designTests);

function designTests(chromiumPath: string): void {
  let server: PortalServer;
  let browser: Browser;
  let catalogue: Catalogue;
  let site: string;

  beforeAll(async () => {
    ({ server, catalogue, site } = await servePortalSites('eventry-portal-design-'));
    browser = await launchChromium(chromiumPath);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  async function open(
    path: string,
    options: Parameters<Browser['newContext']>[0] = {},
  ): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.base}${path}`);
    return { page, context, errors };
  }

  it('the editor marks an error at the nested field its attr names, says why on hover, and the list jumps to it', async () => {
    const { page, context, errors } = await open(`/events/${NESTED}/index.html`);
    await page.waitForSelector('[data-playground-result][data-state="valid"]');
    const textarea = page.locator('textarea#payload');
    const payload = JSON.parse(await textarea.inputValue()) as Record<string, unknown>;
    const [parent, inner] = Object.entries(payload).find(
      ([, value]) => typeof value === 'object' && value !== null && !Array.isArray(value),
    )!;
    const [child] = Object.entries(inner as Record<string, unknown>).find(
      ([, value]) => typeof value === 'string',
    )!;
    await textarea.click();
    await page.waitForSelector('[data-playground][data-editor="ready"]');
    const broken = { ...payload, [parent]: { ...(inner as object), [child]: 42 } };
    await page.locator('[data-playground-input]').fill(JSON.stringify(broken, null, 2));
    const attr = `${parent}.${child}`;
    const item = page.locator(`[data-playground-errors] button[data-attr="${attr}"]`);
    await item.waitFor();
    const marked = page.locator('.cm-lintRange-error');
    await marked.first().waitFor();
    expect(await marked.allTextContents()).toContain(`"${child}": 42`);
    await marked.filter({ hasText: `"${child}": 42` }).hover();
    await expect.poll(() => page.locator('.cm-tooltip-lint').textContent()).toContain(attr);
    await item.click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('class'))).toContain('editor-host');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('no page is wider than a 390 px phone', async () => {
    const shape = Object.keys(catalogue.shapes).sort()[0]!;
    const wide: string[] = [];
    for (const path of phonePages(shape)) {
      const { page, context } = await open(path, { viewport: { width: 390, height: 844 } });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) wide.push(`${path}: ${width}px`);
      await context.close();
    }
    expect(wide).toEqual([]);
  }, 120_000);

  it('dark mode follows prefers-color-scheme, with no serious or critical axe-core violation', async () => {
    for (const path of DARK_PAGES) {
      const { page, context } = await open(path, { colorScheme: 'dark' });
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
      await context.close();
    }
  }, 120_000);

  it('an event page with a declared consumer shows it and its read fields; a team page has no serious axe violation', async () => {
    const { page, context } = await open('/events/account.created-v1/index.html');
    const consumer = page.locator('.event-aside [data-consumer="billing-platform"]');
    expect(await consumer.isVisible()).toBe(true);
    expect(await page.locator('tr[data-field="account_number"]').getAttribute('data-readers')).toBe(
      'billing-platform',
    );
    expect(await page.locator('figure[data-graph] svg').isVisible()).toBe(true);
    await consumer.locator('a').click();
    expect(page.url()).toBe(`${server.base}/teams/billing-platform/index.html`);
    await page.addScriptTag({ url: AXE });
    const { violations } = await page.evaluate(() => window.axe.run({ resultTypes: ['violations'] }));
    expect(
      violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);
    await context.close();
  });

  it('the shapes index lists every shape with where it is used, and the breadcrumb leads to it', async () => {
    const { page, context } = await open('/shapes/index.html');
    const names = await page
      .locator('tr[data-shape]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-shape')));
    expect(names).toEqual(Object.keys(catalogue.shapes).sort());
    const shape = names[0]!;
    await page.click(`tr[data-shape="${shape}"] a`);
    await page.click('.crumbs a[href$="shapes/index.html"]');
    expect(page.url()).toBe(`${server.base}/shapes/index.html`);
    await context.close();
  });

  it('search shows the matched field and a snippet, and the arrow keys move through the results', async () => {
    const { page, context } = await open('/search/index.html?q=account_number');
    const first = page.locator('ol[data-search-results] li').first();
    await first.waitFor();
    expect(await first.locator('[data-search-fields]').getAttribute('data-search-fields')).toContain(
      'account_number',
    );
    const fieldLink = await first.locator('.hit-fields a').first().getAttribute('href');
    expect(fieldLink).toMatch(/#field-account_number$/);
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-search-hit'))).toBeTruthy();
    // A word of a description: the snippet shows it marked.
    await page.goto(`${server.base}/small/search/index.html?q=created`);
    const snippet = page.locator('[data-search-snippet]').first();
    await snippet.waitFor();
    expect(await snippet.textContent()).toContain('An account was created.');
    expect(await snippet.locator('mark').allTextContents()).toEqual(['created.']);
    await context.close();
  });

  it('an event page with everything it loads stays under 300 KB, and paints first within 500 ms', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    let bytes = 0;
    const sizes: string[] = [];
    page.on('response', async (response) => {
      const body = await response.body().catch(() => Buffer.alloc(0));
      bytes += body.length;
      sizes.push(`${response.url().slice(server.base.length)} ${body.length}`);
    });
    await page.goto(`${server.base}/events/${NESTED}/index.html`, { waitUntil: 'networkidle' });
    await page.waitForSelector('[data-playground-result][data-state="valid"]');
    expect(bytes, sizes.join('\n')).toBeLessThan(300 * 1024);
    // The page's first paint, the best of five loads: the budget is the page's, not a busy machine's.
    const paints: number[] = [];
    for (let i = 0; i < 5; i++) {
      const fresh = await context.newPage();
      await fresh.bringToFront();
      await fresh.goto(`${server.base}/events/${NESTED}/index.html`, { waitUntil: 'load' });
      // The entry is recorded once the page has painted, which can be just after `load`.
      await fresh.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
      paints.push(
        await fresh.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]!.startTime),
      );
      await fresh.close();
    }
    expect(Math.min(...paints), paints.join(', ')).toBeLessThan(500);
    await context.close();
  });

  it('a page opened from a folder says at once how to serve the portal', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(site, 'events', NESTED, 'index.html')).href);
    const notice = page.locator('[data-file-notice]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('eventry serve');
    await context.close();
  });
}
