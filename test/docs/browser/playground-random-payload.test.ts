import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserKind,
  describeInBrowsers,
  launchBrowser,
  openPage,
  outsideRequests,
  textOf,
} from './browsers.js';
import { type PortalServer, portalSites, servePortal } from './portal-helpers.js';

/**
 * The playground's "Random payload" button, in Chromium and Firefox under the portal's strict policy: it
 * fills the payload with the group package's own `fake` (random variant) and the shipped validator says
 * valid.
 */
describeInBrowsers('the playground random payload button', (kind: BrowserKind, executablePath: string) => {
  let server: PortalServer;
  let browser: Browser;

  beforeAll(async () => {
    // The small fixture's site the portal suites share (built once per run).
    server = await servePortal({ '/': (await portalSites()).smallSite }, {});
    browser = await launchBrowser(kind, executablePath);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('fills a new valid payload on each click, with no policy violation or outside request', async () => {
    const { page, errors, requests } = await openPage(
      browser,
      `${server.base}/events/account.created-v1/index.html`,
    );
    const payload = () =>
      page.$eval('textarea#payload', (area) => (area as unknown as { value: string }).value);
    const seen = new Set<string>();
    for (let click = 0; click < 5; click++) {
      await page.click('[data-playground-random]');
      // The payload drawn with this click's seed, and its verdict once checked.
      await page.waitForSelector(
        `[data-playground][data-random-seed="${click}"] [data-playground-result]:not([data-state="checking"])`,
      );
      const result = page.$eval('[data-playground-result]', (r) => r.getAttribute('data-state'));
      expect(await result, await textOf(page, '[data-playground-result]')).toBe('valid');
      seen.add(await payload());
    }
    expect(seen.size).toBeGreaterThan(1);
    expect(JSON.parse([...seen][0]!)).toHaveProperty('account_number');
    expect(errors).toEqual([]);
    expect(outsideRequests(requests, server.base)).toEqual([]);
    expect(requests).toContain(`${server.base}/pkg/account/testing-data.js`);
    await page.close();
  });
});
