import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  describeWithResource,
  findChromium,
  fixturePath,
  launchChromium,
  loadValid,
  tempDir,
} from '../../helpers.js';
import { buildSmallPackages, type PortalServer, servePortal, writeTestSite } from './portal-helpers.js';

// The page functions below run in Chromium; this file is type-checked with Node's globals only.
declare const document: {
  querySelector(selector: string): { getAttribute(name: string): string | null; value?: string } | null;
};

/**
 * The playground's "Random payload" button, in Chromium under the portal's strict policy: it fills the
 * payload with the group package's own `fake` (random variant) and the shipped validator says valid.
 */
describeWithResource(
  'the playground random payload button in Chromium',
  await findChromium(),
  (chromiumPath) => {
    let server: PortalServer;
    let browser: Browser;
    const site = join(tempDir('eventry-portal-random-'), 'site');

    beforeAll(async () => {
      await writeTestSite(site, {
        catalogue: loadValid(fixturePath('small')),
        packagesDir: buildSmallPackages(),
      });
      server = await servePortal({ '/': site }, {});
      browser = await launchChromium(chromiumPath);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      server?.close();
    });

    const state = (page: Page) =>
      page.evaluate(() => document.querySelector('[data-playground-result]')?.getAttribute('data-state'));

    it('fills a new valid payload on each click, with no policy violation or outside request', async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(`${server.base}/events/account.created-v1/index.html`);
      const input = page.locator('textarea#payload');
      const seen = new Set<string>();
      for (let click = 0; click < 5; click++) {
        const before = await input.inputValue();
        await page.locator('[data-playground-random]').click();
        await page.waitForFunction((old) => {
          const now = document.querySelector('[data-playground-input]')?.value;
          const verdict = document.querySelector('[data-playground-result]')?.getAttribute('data-state');
          return now !== old && verdict !== null && verdict !== 'checking';
        }, before);
        expect(await state(page), (await page.locator('[data-playground-result]').textContent()) ?? '').toBe(
          'valid',
        );
        seen.add(await input.inputValue());
      }
      expect(seen.size).toBeGreaterThan(1);
      expect(JSON.parse([...seen][0]!)).toHaveProperty('account_number');
      expect(errors).toEqual([]);
      expect(requests.filter((url) => !url.startsWith(`${server.base}/`))).toEqual([]);
      expect(requests).toContain(`${server.base}/pkg/account/testing-data.js`);
      await page.close();
    });
  },
);
