import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSite } from '../../generators/docs/site.js';
import { writeSiteAtomically } from '../../generators/docs/write-site.js';
import { seedPackages, tempDir } from '../helpers.js';
import { type RunningRegistry, seedHistory, startRegistry } from '../serve/serve-helpers.js';

describe('eventry serve at /docs/', () => {
  let registry: RunningRegistry;
  let empty: RunningRegistry;

  beforeAll(async () => {
    const history = seedHistory();
    const site = join(tempDir(), 'site');
    await writeSiteAtomically(site, (emit) =>
      generateSite({ catalogue: history.current, history, packagesDir: seedPackages() }, emit),
    );
    registry = await startRegistry(history, { docsDir: site });
    empty = await startRegistry(history, { docsDir: join(tempDir(), 'nothing') });
  }, 60_000);
  afterAll(async () => {
    await registry?.close();
    await empty?.close();
  });

  it('serves the portal pages and assets with the strict policy', async () => {
    const home = await fetch(`${registry.url}/docs/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await home.text()).toContain('Platform event catalogue');
    const event = await fetch(`${registry.url}/docs/events/agreement.revoked-v2/`);
    expect(event.status).toBe(200);
    const validator = await fetch(`${registry.url}/docs/pkg/agreements/events/agreement.revoked-v2.js`);
    expect(validator.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const redirect = await fetch(`${registry.url}/docs`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/docs/']);
  });

  it('answers a revalidation of an unchanged shared asset with 304', async () => {
    const first = await fetch(`${registry.url}/docs/assets/minisearch.js`);
    const etag = first.headers.get('etag');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const again = await fetch(`${registry.url}/docs/assets/minisearch.js`, {
      headers: { 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('keeps the registry routes beside it', async () => {
    const subjects = await fetch(`${registry.url}/subjects`);
    expect(subjects.status).toBe(200);
    expect(await subjects.json()).toContain('agreement.revoked-v2');
  });

  it('serves nothing outside the site folder (path traversal is a 404)', async () => {
    for (const path of [
      '/docs/../package.json',
      '/docs/%2e%2e/%2e%2e/package.json',
      '/docs/..%2f..%2fpackage.json',
    ]) {
      const response = await fetch(`${registry.url}${path}`);
      if (response.status === 200) expect(await response.text()).not.toContain('"name": "eventry"');
      else expect(response.status).toBe(404);
    }
  });

  it('says how to build the site when there is none', async () => {
    const response = await fetch(`${empty.url}/docs/`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('eventry docs');
  });
});
