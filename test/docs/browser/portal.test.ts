import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Catalogue } from '../../../generators/model.js';
import { describeWithResource, findChromium, launchChromium } from '../../helpers.js';
import { AXE, expectedRows, type PortalServer, servePortalSites } from './portal-helpers.js';

// The page functions below run in Chromium; this file is type-checked with Node's globals only.
interface BrowserElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
}
declare const document: {
  querySelectorAll(selector: string): ArrayLike<BrowserElement>;
  querySelector(selector: string): BrowserElement | null;
};
declare const window: {
  axe: { run(options: object): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
};

describeWithResource('docs portal in Chromium', await findChromium(), portalTests);

function portalTests(chromiumPath: string): void {
  let server: PortalServer;
  let browser: Browser;
  let base: string;
  let catalogue: Catalogue;

  beforeAll(async () => {
    ({ server, catalogue } = await servePortalSites('eventry-portal-'));
    base = server.base;
    browser = await launchChromium(chromiumPath);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  /** A page that records console errors, page errors, policy violations and every request it makes. */
  async function open(path: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${base}${path}`);
    return { page, errors, requests };
  }

  /** Waits until the playground has shown a verdict (of the given kind, when given). */
  async function settled(page: Page, state?: 'valid' | 'invalid'): Promise<void> {
    await page.waitForFunction(
      (want) => {
        const seen = document.querySelectorAll('[data-playground-result]')[0]?.getAttribute('data-state');
        return want ? seen === want : seen !== null && seen !== undefined;
      },
      state,
      { timeout: 10_000 },
    );
  }

  it('the home page lists every group', async () => {
    const { page, errors } = await open('/index.html');
    const groups = await page.$$eval('tr[data-group]', (rows) =>
      rows.map((row) => row.getAttribute('data-group')),
    );
    expect(groups).toEqual(catalogue.groups.map((group) => group.slug));
    expect(await page.locator('[data-catalogue-version]').textContent()).toBe(catalogue.config.version);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('every event page lists exactly the fields of the model, with their data-* attributes', async () => {
    const page = await browser.newPage();
    const wrong: string[] = [];
    for (const key of Object.keys(catalogue.events).sort()) {
      await page.goto(`${base}/events/${key}/index.html`);
      const rows = await page.evaluate(() =>
        Array.from(document.querySelectorAll('table[data-fields-table] tr[data-field]'), (row) =>
          [
            row.getAttribute('data-field'),
            row.getAttribute('data-required'),
            row.getAttribute('data-type'),
          ].join('|'),
        ),
      );
      const want = expectedRows(catalogue, catalogue.events[key]!.fields);
      if (JSON.stringify(rows) !== JSON.stringify(want))
        wrong.push(`${key}: got ${rows.join(', ')}; want ${want.join(', ')}`);
    }
    await page.close();
    expect(wrong).toEqual([]);
  }, 300_000);

  it('the playground says valid for the full example and gives the platform 400 body otherwise, under the strict policy', async () => {
    const { page, errors, requests } = await open('/events/agreement.revoked-v2/index.html');
    const result = page.locator('[data-playground-result]');
    await settled(page, 'valid');
    expect(await result.textContent()).toBe('valid');
    await page.locator('[data-playground-input]').fill('{"agreement_id": "x", "extra": 1}');
    await page.locator('[data-playground-run]').click();
    await settled(page, 'invalid');
    const strict = JSON.parse((await result.textContent()) ?? '') as {
      code: string;
      errors: { code: string; attr: string }[];
    };
    expect(strict.code).toBe('event_failed_validation');
    expect(strict.errors.map((e) => `${e.attr}:${e.code}`).sort()).toEqual([
      'account_number:required',
      'agreement_id:invalid_type',
      'extra:unknown_field',
    ]);
    await page.locator('input[value="tolerant"]').check();
    await page.waitForFunction(
      () => !document.querySelector('[data-playground-result]')?.textContent?.includes('unknown_field'),
    );
    const tolerant = JSON.parse((await result.textContent()) ?? '') as {
      errors: { code: string; attr: string }[];
    };
    expect(tolerant.errors.map((e) => `${e.attr}:${e.code}`).sort()).toEqual([
      'account_number:required',
      'agreement_id:invalid_type',
    ]);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([]);
    expect(requests).toContain(`${base}/pkg/agreements/events/agreement.revoked-v2.js`);
    await page.close();
  });

  it('the playground accepts the full example of nested and array-of-shape events', async () => {
    for (const key of ['contract-groups.version-created-v1', 'billing.ledger.entry_posted-v2']) {
      if (!catalogue.events[key]) continue;
      const { page, errors } = await open(`/events/${key}/index.html`);
      await settled(page);
      expect(await page.locator('[data-playground-result]').textContent()).toBe('valid');
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('the playground checks date formats with the ajv-formats code the site ships, under the strict policy', async () => {
    const { page, errors, requests } = await open('/small/events/account.created-v1/index.html');
    await settled(page, 'valid');
    const payload = JSON.parse((await page.locator('[data-playground-input]').inputValue()) ?? '') as Record<
      string,
      unknown
    >;
    expect(payload.opened_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page
      .locator('[data-playground-input]')
      .fill(JSON.stringify({ ...payload, opened_on: '2024-02-31' }));
    await page.locator('[data-playground-run]').click();
    await settled(page, 'invalid');
    const body = JSON.parse((await page.locator('[data-playground-result]').textContent()) ?? '') as {
      errors: { code: string; attr: string }[];
    };
    expect(body.errors.map((e) => `${e.attr}:${e.code}`)).toEqual(['opened_on:invalid_format']);
    expect(requests).toContain(`${base}/small/assets/vendor/ajv-formats.js`);
    expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('search finds an event by part of its name and by a field name', async () => {
    const { page, errors, requests } = await open('/search/index.html?q=revok');
    const hits = page.locator('[data-search-hit]');
    await hits.first().waitFor();
    const byName = await hits.allTextContents();
    expect(byName).toEqual(expect.arrayContaining(['agreement.revoked-v1', 'agreement.revoked-v2']));
    // One letter is no prefix (it listed every event of a 10k catalogue): the page applies minPrefix too.
    await page.locator('[data-search-input]').fill('v');
    await page.waitForFunction(
      () => document.querySelector('[data-search-status]')?.textContent === '0 results',
    );
    await page.locator('[data-search-input]').fill('rolled_on_to_agreement_valid_from');
    await page.waitForFunction(
      () => !document.querySelector('[data-search-hit]')?.textContent?.includes('revoked'),
    );
    expect(await page.locator('[data-search-hit]').allTextContents()).toEqual([
      'agreement.rollover.completed-v1',
    ]);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${base}/`))).toEqual([]);
    await page.close();
  });

  it('the semantic diff between agreement.revoked-v1 and -v2 names the added field', async () => {
    const { page } = await open('/events/agreement.revoked-v2/index.html');
    const diff = page.locator('[data-version-diff="agreement.revoked-v1"]');
    const finding = diff.locator('li[data-attr="account_number"]');
    expect(await finding.textContent()).toContain('account_number');
    expect(await finding.getAttribute('data-rule')).toBe('required-field-added');
    await page.close();
  });

  it('has no serious or critical axe-core violations on the home, group, event, shape and search pages', async () => {
    const shape = Object.keys(catalogue.shapes).sort()[0]!;
    for (const path of [
      '/index.html',
      '/groups/agreements/index.html',
      '/events/agreement.rollover.completed-v1/index.html',
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
    const { page } = await open('/events/agreement.rollover.completed-v1/index.html');
    const toggle = page.locator('button[data-toggle="new_product"]');
    const nested = page.locator('tr[data-parent="new_product"]').first();
    expect(await nested.isVisible()).toBe(true);
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await nested.isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    expect(await nested.isVisible()).toBe(true);
    await page.close();
  });
}
