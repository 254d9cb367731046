/**
 * `node dist/scripts/docs-screenshots.js [SITE]`: screenshots of the docs portal for the README (home,
 * one event page, the playground with an invalid payload marked in the editor, search, a phone and
 * dark mode), taken with Chromium through puppeteer-core (the browser tests' driver) from a site `eventry docs` wrote (default
 * `.eventry/site`), served on the loopback.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const site = resolve(process.argv[2] ?? join(REPO, '.eventry/site'));
const out = join(REPO, 'generators/docs/screenshots');
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
  browser: 'chrome',
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
  defaultViewport: { width: 1200, height: 800 },
});
try {
  const page = await browser.newPage();
  await page.goto(`${base}/index.html`);
  await page.screenshot({ path: join(out, 'home.png') });
  await page.goto(`${base}/events/agreement.rollover.completed-v1/index.html`);
  await page.screenshot({ path: join(out, 'event.png') });
  await page.goto(`${base}/events/agreement.revoked-v2/index.html`);
  await page.click('[data-playground-input]');
  await page.waitForSelector('[data-playground][data-editor="ready"]');
  // The textarea stays, hidden and in sync with the editor: text set there reaches the editor.
  await page.$eval('textarea#payload', (area) => {
    const field = area as unknown as { value: string; dispatchEvent(event: unknown): boolean };
    field.value = '{\n  "agreement_id": 7,\n  "extra": 1\n}';
    field.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForSelector('[data-playground-errors] button');
  const playground = await page.$('[data-playground]');
  await playground!.scrollIntoView();
  await playground!.screenshot({ path: join(out, 'playground.png') });
  await page.goto(`${base}/search/index.html?q=account_number`);
  await page.waitForSelector('[data-search-hit]');
  await page.screenshot({ path: join(out, 'search.png') });
  // Chromium only, over CDP: the viewport and colour scheme are emulated per page.
  const phone = await browser.newPage();
  await phone.setViewport({ width: 390, height: 844 });
  await phone.goto(`${base}/events/billing.ledger.entry_posted-v2/index.html`);
  await phone.screenshot({ path: join(out, 'mobile.png') });
  const dark = await browser.newPage();
  await dark.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]);
  await dark.goto(`${base}/events/agreement.rollover.completed-v1/index.html`);
  await dark.screenshot({ path: join(out, 'dark.png') });
  console.log(`screenshots written into ${out}`);
} finally {
  await browser.close();
  server.close();
}
