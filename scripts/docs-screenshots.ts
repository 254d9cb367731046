/**
 * `node dist/scripts/docs-screenshots.js [SITE]`: screenshots of the docs portal for the README (home,
 * one event page, the playground with an invalid payload marked in the editor, search, a team page with
 * its graph in dark mode; on a 390 px phone the top of an event page and its fields table and graph), taken with
 * Chromium through puppeteer-core from a site `eventry docs` wrote (default `.eventry/site`), served on
 * the loopback.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Page } from 'puppeteer-core';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const site = resolve(process.argv[2] ?? join(REPO, '.eventry/site'));
const out = join(REPO, 'generators/docs/screenshots');
/** The event the page shots show: nested shapes, a producer, a consumer and the fields it reads. */
const EVENT = 'billing.ledger.entry_posted-v2';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

const server = createServer((request, response) => {
  let path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
  if (path.endsWith('/')) path += 'index.html';
  const file = resolve(site, `.${path}`);
  if (!file.startsWith(site) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  response.end(readFileSync(file));
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  defaultViewport: null,
  args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--window-size=1280,1000'],
});

/** A page in a window of `width` x `height` px: set on the window, which Chromium keeps at least 500 px wide at launch. */
async function windowOf(width: number, height: number): Promise<Page> {
  const page = await browser.newPage();
  const session = await page.createCDPSession();
  const { windowId } = await session.send('Browser.getWindowForTarget');
  await session.send('Browser.setWindowBounds', { windowId, bounds: { width, height } });
  await session.detach();
  return page;
}

/** The part of the page from the top of `from` to the bottom of `to`, at the page's width. */
async function shootBetween(page: Page, from: string, to: string, path: string): Promise<void> {
  const clip = await page.evaluate(
    (a: string, b: string) => {
      const doc = globalThis as unknown as {
        document: { querySelector(s: string): { getBoundingClientRect(): { top: number; bottom: number } } };
        scrollY: number;
        innerWidth: number;
      };
      const top = doc.document.querySelector(a).getBoundingClientRect().top + doc.scrollY;
      const bottom = doc.document.querySelector(b).getBoundingClientRect().bottom + doc.scrollY;
      return { x: 0, y: Math.max(0, top - 8), width: doc.innerWidth, height: bottom - top + 16 };
    },
    from,
    to,
  );
  await page.screenshot({ path, clip });
}

try {
  const desk = await windowOf(1280, 1000);
  await desk.goto(`${base}/index.html`);
  await desk.screenshot({ path: join(out, 'home.png') });
  await desk.goto(`${base}/events/${EVENT}/index.html`);
  await desk.screenshot({ path: join(out, 'event.png') });
  await desk.goto(`${base}/events/agreement.revoked-v2/index.html`);
  await desk.click('[data-playground-input]');
  await desk.waitForSelector('[data-playground][data-editor="ready"]');
  await desk.click('[data-playground] >>> [data-playground-input]');
  await desk.keyboard.down('Control');
  await desk.keyboard.press('a');
  await desk.keyboard.up('Control');
  await desk.keyboard.type('{\n"agreement_id": 7,\n"extra": 1\n}');
  await desk.waitForSelector('[data-playground-errors] button');
  await (await desk.$('[data-playground]'))!.screenshot({ path: join(out, 'playground.png') });
  await desk.goto(`${base}/search/index.html?q=account_number`);
  await desk.waitForSelector('[data-search-hit]');
  await desk.screenshot({ path: join(out, 'search.png') });
  await desk.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  await desk.goto(`${base}/teams/billing-platform/index.html`);
  await desk.screenshot({ path: join(out, 'dark.png') });
  const phone = await windowOf(390, 844);
  await phone.goto(`${base}/events/${EVENT}/index.html`);
  await phone.screenshot({ path: join(out, 'mobile.png') });
  await shootBetween(phone, '#fields', 'figure.graph', join(out, 'mobile-fields.png'));
  console.log(`screenshots written into ${out}`);
} finally {
  await browser.close();
  server.close();
}
