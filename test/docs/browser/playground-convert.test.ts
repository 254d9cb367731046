import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO } from '../../helpers.js';
import { V1, V2, writeMigrationSite } from '../migration-site.js';
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
import { AXE, type PortalServer, servePortal } from './portal-helpers.js';

// The page functions below run in the browser; this file is type-checked with Node's globals only.
declare const window: {
  axe: { run(options: object): Promise<{ violations: { id: string; impact: string }[] }> };
};

/**
 * The migrations on an event page (issue 46), in Chromium and Firefox under the portal's strict policy:
 * the steps table, and the playground's "Convert from v1", which runs the compiled upgrade in the browser
 * and validates what it gives with the package's validator.
 */
describeInBrowsers(
  'the playground converts a payload of the previous version',
  (kind: BrowserKind, path: string) => {
    let server: PortalServer;
    let browser: Browser;

    beforeAll(async () => {
      const site = await writeMigrationSite();
      server = await servePortal({ '/': site }, { [AXE]: join(REPO, 'node_modules/axe-core/axe.min.js') });
      browser = await launchBrowser(kind, path);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      server?.close();
    });

    const url = () => `${server.base}/events/${V2}/index.html`;
    const v1 = { account_number: 'A-7', account_user_emails: ['a@example.com'], status: 'active', score: 2 };

    it('converts the v1 payload in the box into a v2 one the validator accepts', async () => {
      const { page, errors, requests } = await openPage(browser, url());
      expect(await textsOf(page, '[data-migration="upgrade"] [data-step-action]')).toHaveLength(4);
      expect(await textOf(page, '[data-migration="upgrade"] h3')).toContain(V1);
      // The box holds v2's example; as a v1 payload it is not valid v2 once its required fields are gone.
      await setValue(page, 'textarea#payload', JSON.stringify(v1));
      await page.waitForSelector('[data-playground-result][data-state="invalid"]');
      await page.click(`[data-playground-convert="${V1}"]`);
      await page.waitForSelector(
        `[data-playground][data-converted-from="${V1}"] [data-playground-result][data-state="valid"]`,
      );
      const converted = await page.$eval(
        'textarea#payload',
        (area) => (area as unknown as { value: string }).value,
      );
      expect(JSON.parse(converted)).toEqual({
        account_number: 'A-7',
        account_user_emails: ['a@example.com'],
        reason: 'closed by A-7',
        changes: { migrated: true, status: 'active' },
      });
      expect(errors).toEqual([]);
      expect(outsideRequests(requests, server.base)).toEqual([]);
      expect(requests).toContain(`${server.base}/migrations/${V2}.js`);
      await page.close();
    });

    it('a box that is not JSON is left as it is, and the verdict says why', async () => {
      const { page, errors } = await openPage(browser, url());
      // As a reader pastes: into the editor, which the first turn to the playground loads.
      await page.focus('textarea#payload');
      await page.waitForSelector('[data-playground][data-editor="ready"]');
      await setValue(page, '[data-playground-source]', '{"account_number": ');
      await page.waitForSelector('[data-playground-result][data-state="invalid"]');
      await page.click(`[data-playground-convert="${V1}"]`);
      await sleep(300);
      expect(await textOf(page, '[data-playground-result]')).toMatch(/^Not JSON: /);
      const converted = await page.$eval('[data-playground]', (section) =>
        section.getAttribute('data-converted-from'),
      );
      expect(converted).toBeNull();
      const box = await page.$eval(
        '[data-playground-source]',
        (area) => (area as unknown as { value: string }).value,
      );
      expect(box).toBe('{"account_number": ');
      expect(errors).toEqual([]);
      await page.close();
    });

    it('has no serious or critical axe-core violations', async () => {
      const { page } = await openPage(browser, url());
      await page.addScriptTag({ url: AXE });
      const { violations } = await page.evaluate(() => window.axe.run({ resultTypes: ['violations'] }));
      const serious = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id);
      expect(serious).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
