import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedPackages } from '../../helpers.js';
import { type BrowserKind, describeInBrowsers, launchBrowser } from './browsers.js';

// The page functions below run in the browser, while this file is type-checked with Node's globals only:
// these are the few browser globals they touch, without the whole DOM library for every test.
declare const document: {
  documentElement: { dataset: Record<string, string | undefined> };
  addEventListener(
    type: 'securitypolicyviolation',
    listener: (event: { violatedDirective: string; blockedURI: string }) => void,
  ): void;
};
declare const Image: new () => { src: string };

/**
 * The generated validators in a real browser under a strict content security policy: `script-src 'self'`,
 * no 'unsafe-eval'. Ajv compiling at run time would need `new Function` and be blocked; the precompiled
 * package must work there, in Chromium and in Firefox (CI installs both, .ci/run; see `findBrowser`).
 */
const PACKAGE = join(seedPackages(), 'billing');
const RUNTIME = join(seedPackages(), 'runtime');
/**
 * A group built before docs/decisions/0175 imports its run time package by name, which a browser resolves
 * through an import map, as an application without a bundler would: an inline script the policy allows
 * by its hash alone. A group built since imports its own `runtime.js` and needs none.
 */
const IMPORT_MAP = JSON.stringify({ imports: { '@platform-events/runtime': '/runtime/runtime.js' } });
const CSP = `default-src 'none'; script-src 'self' 'sha256-${createHash('sha256').update(IMPORT_MAP).digest('base64')}'; connect-src 'self'`;
const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.html': 'text/html',
};

const pages: Record<string, string> = {
  '/validate.js': `
    import { validate } from '/pkg/index.js';
    const valid = validate('billing.ledger.entry_posted-v2', {
      ledger: { account: { number: 'A-1' }, number: 'L-1' },
      entry: { id: 1, is_charge: true, is_credit: false, is_payment: false, is_repayment: false, is_reversal: false, is_reversed: false },
    });
    const invalid = validate('billing.ledger.entry_posted-v2', { ledger: { account: {}, number: 7, extra: 1 } });
    document.documentElement.dataset.result = JSON.stringify({ valid, invalid });`,
  // The control: what run-time compilation needs is really blocked on this page.
  '/eval.js': `
    let result;
    try { new Function('return 1')(); result = 'allowed'; } catch (e) { result = 'blocked: ' + e.name; }
    document.documentElement.dataset.result = JSON.stringify(result);`,
};

function serve(): Promise<Server> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    let body: string | undefined;
    if (path === '/' || path === '/eval.html') {
      const script = path === '/' ? '/validate.js' : '/eval.js';
      body = `<!doctype html><meta charset="utf-8"><script type="importmap">${IMPORT_MAP}</script><script type="module" src="${script}"></script>`;
    } else if (pages[path]) {
      body = pages[path];
    } else if (path.startsWith('/pkg/')) {
      const file = normalize(join(PACKAGE, path.slice(5)));
      if (file.startsWith(PACKAGE)) body = readFileSync(file, 'utf8');
    } else if (path.startsWith('/runtime/')) {
      const file = normalize(join(RUNTIME, path.slice(9)));
      if (file.startsWith(RUNTIME)) body = readFileSync(file, 'utf8');
    }
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(path)] ?? 'text/html',
      'content-security-policy': CSP,
    });
    response.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Requested by the page once its script has run: its own violation is reported after any earlier one. */
const BARRIER = '/violation-barrier.png';

describeInBrowsers('generated validators under a strict content security policy', browserTests);

function browserTests(kind: BrowserKind, executablePath: string): void {
  let server: Server;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    server = await serve();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser(kind, executablePath);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  /**
   * Opens `path` and returns what its script left in `data-result`, with the policy violations the page
   * reported (recorded into `data-violations` by a script that runs before the page's own).
   */
  async function run(path: string) {
    const page = await browser.newPage();
    await page.evaluateOnNewDocument(() => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(`${event.violatedDirective} ${event.blockedURI}`);
        document.documentElement.dataset.violations = JSON.stringify(seen);
      });
    });
    await page.goto(`${base}${path}`);
    await page.waitForSelector('html[data-result]', { timeout: 10_000 });
    // Violation events are dispatched asynchronously, in order: once the blocked barrier image is
    // reported, every violation the page's script caused has been reported too.
    await page.evaluate((barrier) => {
      new Image().src = barrier;
    }, BARRIER);
    await page.waitForSelector(`html[data-violations*="${BARRIER}"]`, { timeout: 10_000 });
    const { result, violations } = await page.$eval('html', (html) => ({
      result: JSON.parse(html.getAttribute('data-result') ?? 'null') as unknown,
      violations: JSON.parse(html.getAttribute('data-violations') ?? '[]') as string[],
    }));
    await page.close();
    // Firefox asks for `/favicon.ico` on its own (the page names no icon): a request of the browser's,
    // not of the page's script.
    const own = violations.filter((v) => !v.endsWith(BARRIER) && !v.endsWith('/favicon.ico'));
    return { result, violations: own };
  }

  it('the policy really forbids run-time code generation (control)', async () => {
    const { result, violations } = await run('/eval.html');
    expect(result).toBe('blocked: EvalError');
    expect(violations.length).toBeGreaterThan(0);
  });

  it('validates with the platform error body and no policy violation', async () => {
    const { result, violations } = await run('/');
    expect(violations).toEqual([]);
    const { valid, invalid } = result as {
      valid: unknown;
      invalid: { valid: boolean; error: { code: string; errors: { attr: string; code: string }[] } };
    };
    expect(valid).toEqual({ valid: true });
    expect(invalid.valid).toBe(false);
    expect(invalid.error.code).toBe('event_failed_validation');
    expect(invalid.error.errors.map((e) => `${e.attr}:${e.code}`).sort()).toEqual(
      [
        'entry:required',
        'ledger.account.number:required',
        'ledger.extra:unknown_field',
        'ledger.number:invalid_type',
      ].sort(),
    );
  });
}
