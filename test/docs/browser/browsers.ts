import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { describeWithResource, type OptionalResource, optionalResource } from '../../helpers.js';

/**
 * The browsers every portal suite runs in, all driven by puppeteer-core: Chromium over CDP, Firefox over
 * WebDriver BiDi (docs/decisions/0081-one-browser-driver.md). What works in both, whatever their
 * version: waits on selectors and attributes (never `waitForFunction`, which Firefox runs as `new
 * Function` in the page and the portal's policy forbids), the window size from launch arguments (never
 * `setViewport`, which sends emulation commands only some versions know).
 */
export type BrowserKind = 'chromium' | 'firefox';

export const BROWSER_KINDS: readonly BrowserKind[] = ['chromium', 'firefox'];

const NAMES: Record<BrowserKind, string> = { chromium: 'Chromium', firefox: 'Firefox' };

/**
 * The browser of `kind`: the path its variable names when set (and only it: CHROMIUM_PATH,
 * FIREFOX_PATH), else Debian's. Absent is a skip with a notice naming how to install it, or in CI
 * (which installs both, .ci/run) a failure.
 */
export function findBrowser(kind: BrowserKind, env: NodeJS.ProcessEnv = process.env): OptionalResource {
  return kind === 'chromium'
    ? optionalResource(
        {
          what: 'Chromium',
          envVar: 'CHROMIUM_PATH',
          candidates: ['/usr/bin/chromium'],
          skips: 'the Chromium browser tests',
          get: 'apt-get install chromium',
        },
        env,
      )
    : optionalResource(
        {
          what: 'Firefox',
          envVar: 'FIREFOX_PATH',
          candidates: ['/usr/bin/firefox-esr', '/usr/bin/firefox'],
          skips: 'the Firefox browser tests',
          get: 'apt-get install firefox-esr',
        },
        env,
      );
}

/** How a test browser starts: its window size (1280 x 800 unless given) and colour scheme. */
export interface LaunchOptions {
  width?: number;
  height?: number;
  dark?: boolean;
}

/** Chromium's switches: no sandbox (root in CI), no GPU, none of its own traffic (SETUP-NOTES). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Firefox's own traffic (updates, telemetry, remote settings) off: every request a test sees is the page's. */
const FIREFOX_PREFS = {
  'app.update.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.enabled': false,
  'services.settings.server': 'http://127.0.0.1:9/',
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
};

/**
 * Launches the browser of `kind` at `executablePath`, headless, its window sized by launch arguments
 * (`defaultViewport: null`: puppeteer sends no viewport command; narrower than 500 px, see
 * `setViewportSize`), dark by Chromium's switch or Firefox's
 * own preference (BiDi has no media emulation every version knows).
 */
export function launchBrowser(
  kind: BrowserKind,
  executablePath: string,
  { width = 1280, height = 800, dark = false }: LaunchOptions = {},
): Promise<Browser> {
  if (kind === 'chromium') {
    return puppeteer.launch({
      browser: 'chrome',
      executablePath,
      headless: true,
      defaultViewport: null,
      args: [...CHROMIUM_ARGS, `--window-size=${width},${height}`, ...(dark ? ['--force-dark-mode'] : [])],
    });
  }
  return puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    defaultViewport: null,
    args: [`--width=${width}`, `--height=${height}`],
    extraPrefsFirefox: {
      ...FIREFOX_PREFS,
      // 0 = dark, 1 = light: Firefox's own switch for `prefers-color-scheme`.
      'layout.css.prefers-color-scheme.content-override': dark ? 0 : 1,
    },
  });
}

/**
 * Sets the size of `page`'s viewport, for widths below the smallest window both browsers open (500 px):
 * in Firefox with WebDriver BiDi's standard `browsingContext.setViewport` alone (puppeteer's
 * `setViewport` also sends `emulation.setScreenOrientationOverride`, which Firefox 140 does not know),
 * in Chromium with CDP's `Emulation.setDeviceMetricsOverride` (puppeteer's `setViewport`).
 */
export async function setViewportSize(
  kind: BrowserKind,
  page: Page,
  viewport: { width: number; height: number },
): Promise<void> {
  if (kind === 'chromium') {
    await page.setViewport(viewport);
    return;
  }
  // puppeteer's BiDi frame exposes its browsing context; its type is not part of the public API.
  const frame = page.mainFrame() as unknown as {
    browsingContext: { setViewport(options: { viewport: { width: number; height: number } }): Promise<void> };
  };
  await frame.browsingContext.setViewport({ viewport });
}

/** Declares `body` once per browser kind, each with its own skip notice (or CI failure) when absent. */
export function describeInBrowsers(title: string, body: (kind: BrowserKind, path: string) => void): void {
  for (const kind of BROWSER_KINDS) {
    describeWithResource(`${title} in ${NAMES[kind]}`, findBrowser(kind), (path) => body(kind, path));
  }
}

/** A page opened at `url` that records console errors, page errors and every request it makes. */
export async function openPage(
  browser: Browser,
  url: string,
): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url);
  return { page, errors, requests };
}

/**
 * Requests that left `base`: `data:` URLs (Firefox loads a built-in font that way) never leave the
 * process, so they are not counted.
 */
export function outsideRequests(requests: readonly string[], base: string): string[] {
  return requests.filter((url) => !url.startsWith('data:') && !url.startsWith(`${base}/`));
}

/**
 * Sets the value of the form field `selector` and fires `input`, as typing does (the playground's
 * editor and the search box follow their field). Not puppeteer's `Locator.fill`: it waits on a function
 * run in the page, which the portal's policy forbids in Firefox.
 */
export async function setValue(page: Page, selector: string, value: string): Promise<void> {
  await page.$eval(
    selector,
    (field, text) => {
      const element = field as unknown as { value: string; dispatchEvent(event: unknown): boolean };
      element.value = text;
      element.dispatchEvent(new Event('input', { bubbles: true }));
    },
    value,
  );
}

/** The text of the first element `selector` matches. */
export async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.$eval(selector, (element) => element.textContent)) ?? '';
}

/** The text of every element `selector` matches. */
export function textsOf(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (elements) => elements.map((element) => element.textContent ?? ''));
}
