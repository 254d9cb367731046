import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Catalogue } from '../../../generators/model.js';
import {
  type BrowserKind,
  describeInBrowsers,
  launchBrowser,
  openPage,
  outsideRequests,
  setValue,
  textOf,
  textsOf,
} from './browsers.js';
import { AXE, expectedRows, NESTED, type PortalServer, servePortalSites } from './portal-helpers.js';

// The page functions below run in the browser; this file is type-checked with Node's globals only.
interface BrowserElement {
  getAttribute(name: string): string | null;
  offsetParent: unknown;
}
declare const window: {
  axe: { run(options: object): Promise<{ violations: { id: string; impact: string }[] }> };
};

/**
 * The docs portal in Chromium and Firefox under the strict policy a static host sends: pages render with
 * the model's fields, the playground runs the shipped validators without eval, search answers, the tree
 * works from the keyboard, nothing leaves the loopback.
 */
describeInBrowsers('docs portal', portalTests);

function portalTests(kind: BrowserKind, executablePath: string): void {
  let server: PortalServer;
  let browser: Browser;
  let base: string;
  let catalogue: Catalogue;

  beforeAll(async () => {
    ({ server, catalogue } = await servePortalSites());
    base = server.base;
    browser = await launchBrowser(kind, executablePath);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  const open = (path: string) => openPage(browser, `${base}${path}`);

  /** Waits until the playground shows a verdict of `state` (in `mode`, when given), and returns its text. */
  async function verdict(page: Page, state: 'valid' | 'invalid', mode?: string): Promise<string> {
    const modeAttr = mode ? `[data-mode="${mode}"]` : '';
    await page.waitForSelector(`[data-playground-result][data-state="${state}"]${modeAttr}`, {
      timeout: 10_000,
    });
    return textOf(page, '[data-playground-result]');
  }

  it('the home page lists every group', async () => {
    const { page, errors } = await open('/index.html');
    const groups = await page.$$eval('tr[data-group]', (rows) =>
      rows.map((row) => row.getAttribute('data-group')),
    );
    expect(groups).toEqual(catalogue.groups.map((group) => group.slug));
    expect(await textOf(page, '[data-catalogue-version]')).toBe(catalogue.config.version);
    expect(errors).toEqual([]);
    await page.close();
  });

  // Chromium opens every event page; Firefox (slower to drive) every 10th and the nested ones.
  it('event pages list exactly the fields of the model, with their data-* attributes', async () => {
    const keys = Object.keys(catalogue.events).sort();
    const nested = ['contract-groups.version-created-v1', 'billing.ledger.entry_posted-v2', NESTED];
    const sample = kind === 'chromium' ? keys : keys.filter((key, i) => i % 10 === 0 || nested.includes(key));
    const page = await browser.newPage();
    const wrong: string[] = [];
    for (const key of sample) {
      await page.goto(`${base}/events/${key}/index.html`);
      const rows = await page.$$eval('table[data-fields-table] tr[data-field]', (found) =>
        found.map((row) =>
          ['data-field', 'data-required', 'data-type'].map((name) => row.getAttribute(name)).join('|'),
        ),
      );
      const want = expectedRows(catalogue, catalogue.events[key]!.fields);
      if (JSON.stringify(rows) !== JSON.stringify(want))
        wrong.push(`${key}: got ${rows.join(', ')}; want ${want.join(', ')}`);
    }
    await page.close();
    expect(sample.length).toBeGreaterThan(20);
    expect(wrong).toEqual([]);
  }, 300_000);

  it('the playground says valid for the full example and gives the platform 400 body otherwise (strict and tolerant), under the strict policy', async () => {
    const { page, errors, requests } = await open('/events/agreement.revoked-v2/index.html');
    expect(await verdict(page, 'valid')).toBe('valid');
    await setValue(page, '[data-playground-input]', '{"agreement_id": "x", "extra": 1}');
    await page.click('[data-playground-run]');
    const strict = JSON.parse(await verdict(page, 'invalid', 'strict')) as {
      code: string;
      errors: { code: string; attr: string }[];
    };
    expect(strict.code).toBe('event_failed_validation');
    expect(strict.errors.map((e) => `${e.attr}:${e.code}`).sort()).toEqual([
      'account_number:required',
      'agreement_id:invalid_type',
      'extra:unknown_field',
    ]);
    await page.click('input[value="tolerant"]');
    const tolerant = JSON.parse(await verdict(page, 'invalid', 'tolerant')) as {
      errors: { code: string; attr: string }[];
    };
    expect(tolerant.errors.map((e) => `${e.attr}:${e.code}`).sort()).toEqual([
      'account_number:required',
      'agreement_id:invalid_type',
    ]);
    expect(errors).toEqual([]);
    expect(outsideRequests(requests, base)).toEqual([]);
    expect(requests).toContain(`${base}/pkg/agreements/events/agreement.revoked-v2.js`);
    await page.close();
  });

  it('the playground accepts the full example of nested and array-of-shape events', async () => {
    for (const key of ['contract-groups.version-created-v1', 'billing.ledger.entry_posted-v2', NESTED]) {
      if (!catalogue.events[key]) continue;
      const { page, errors } = await open(`/events/${key}/index.html`);
      expect(await verdict(page, 'valid')).toBe('valid');
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('the playground checks date formats with the ajv-formats code the site ships, under the strict policy', async () => {
    const { page, errors, requests } = await open('/small/events/account.created-v1/index.html');
    await verdict(page, 'valid');
    const payload = JSON.parse(
      await page.$eval('[data-playground-input]', (area) => (area as unknown as { value: string }).value),
    ) as Record<string, unknown>;
    expect(payload.opened_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await setValue(page, '[data-playground-input]', JSON.stringify({ ...payload, opened_on: '2024-02-31' }));
    await page.click('[data-playground-run]');
    const body = JSON.parse(await verdict(page, 'invalid')) as { errors: { code: string; attr: string }[] };
    expect(body.errors.map((e) => `${e.attr}:${e.code}`)).toEqual(['opened_on:invalid_format']);
    expect(requests).toContain(`${base}/small/assets/vendor/ajv-formats.js`);
    expect(outsideRequests(requests, base)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('search finds an event by part of its name and by a field name', async () => {
    const { page, errors, requests } = await open('/search/index.html?q=revok');
    await page.waitForSelector('[data-search-hit]');
    expect(await textsOf(page, '[data-search-hit]')).toEqual(
      expect.arrayContaining(['agreement.revoked-v1', 'agreement.revoked-v2']),
    );
    // One letter is no prefix (it listed every event of a 10k catalogue): the page applies minPrefix too.
    await setValue(page, '[data-search-input]', 'v');
    await page.waitForSelector('[data-search-status][data-query="v"]');
    expect(await textOf(page, '[data-search-status]')).toBe('0 results');
    const field = 'rolled_on_to_agreement_valid_from';
    await setValue(page, '[data-search-input]', field);
    await page.waitForSelector(`[data-search-status][data-query="${field}"]`);
    expect(await textsOf(page, '[data-search-hit]')).toEqual(['agreement.rollover.completed-v1']);
    expect(errors).toEqual([]);
    expect(outsideRequests(requests, base)).toEqual([]);
    await page.close();
  });

  it('the semantic diff between agreement.revoked-v1 and -v2 names the added field', async () => {
    const { page } = await open('/events/agreement.revoked-v2/index.html');
    const finding = '[data-version-diff="agreement.revoked-v1"] li[data-attr="account_number"]';
    expect(await textOf(page, finding)).toContain('account_number');
    expect(await page.$eval(finding, (item) => item.getAttribute('data-rule'))).toBe('required-field-added');
    await page.close();
  });

  it('has no serious or critical axe-core violations on the home, group, event, shape and search pages', async () => {
    const shape = Object.keys(catalogue.shapes).sort()[0]!;
    for (const path of [
      '/index.html',
      '/groups/agreements/index.html',
      `/events/${NESTED}/index.html`,
      `/shapes/${shape}/index.html`,
      '/search/index.html?q=agreement',
    ]) {
      const { page } = await open(path);
      await page.addScriptTag({ url: AXE });
      const { violations } = await page.evaluate(() => window.axe.run({ resultTypes: ['violations'] }));
      const serious = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${path}: ${v.id}`);
      expect(serious).toEqual([]);
      await page.close();
    }
  }, 120_000);

  it('collapses and expands nested shape fields from the keyboard', async () => {
    const { page } = await open(`/events/${NESTED}/index.html`);
    const nestedShown = () =>
      page.$eval(
        'tr[data-parent="new_product"]',
        (row) => (row as unknown as BrowserElement).offsetParent !== null,
      );
    expect(await nestedShown()).toBe(true);
    await page.focus('button[data-toggle="new_product"]');
    await page.keyboard.press('Enter');
    expect(
      await page.$eval('button[data-toggle="new_product"]', (b) => b.getAttribute('aria-expanded')),
    ).toBe('false');
    expect(await nestedShown()).toBe(false);
    await page.keyboard.press('Enter');
    expect(await nestedShown()).toBe(true);
    await page.close();
  });
}
