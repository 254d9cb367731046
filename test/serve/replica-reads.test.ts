import { utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers.js';
import { fetchRaw } from './replica-helpers.js';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

/**
 * What a replica behind a load balancer or a CDN answers on reads: a strong ETag from the body's bytes
 * on every successful read (the same on every replica of one history), a 304 without a body when
 * `If-None-Match` names it; an access log line per request with a request id and nothing secret;
 * and the server's own errors through the sink it is given, never on the process's stderr.
 */

/** Two docs sites with the same bytes written at different times, as two replicas' copies would be. */
function docsCopies(): [string, string] {
  const sites = [tempDir('eventry-docs-a-'), tempDir('eventry-docs-b-')] as const;
  sites.forEach((site, n) => {
    writeFileSync(join(site, 'index.html'), '<!doctype html><title>portal</title>\n');
    writeFileSync(join(site, 'app.js'), 'console.log(1);\n');
    const when = new Date(Date.UTC(2026, 0, 1 + n * 7));
    utimesSync(join(site, 'app.js'), when, when);
  });
  return [sites[0], sites[1]];
}

let one: RunningRegistry;
let two: RunningRegistry;
const lines: Record<string, unknown>[] = [];
const logged: string[] = [];
beforeAll(async () => {
  const [siteOne, siteTwo] = docsCopies();
  one = await startRegistry(undefined, {
    docsDir: siteOne,
    accessLog: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    log: (line) => logged.push(line),
    mcp: async () => {
      throw new Error('mcp handler failed');
    },
  });
  two = await startRegistry(undefined, { docsDir: siteTwo });
});
afterAll(async () => {
  await one.close();
  await two.close();
});

/** Every kind of read route: hot (precomputed), computed, raw schema text, lists, config, docs. */
function readPaths(registry: RunningRegistry): string[] {
  const latest = registry.state.subjects.get('account.created-v1')!.at(-1)!;
  return [
    `/schemas/ids/${latest.id}`,
    `/schemas/ids/${latest.id}/schema`,
    `/schemas/ids/${latest.id}/versions`,
    '/subjects/account.created-v1/versions/latest',
    '/subjects/account.created-v1-value/versions/1',
    '/subjects/account.created-v1/versions',
    '/subjects?subjectPrefix=account.',
    '/schemas?latestOnly=true',
    '/config',
    '/config/account.created-v1',
    '/mode',
    '/docs/',
    '/docs/app.js',
  ];
}

/** Waits (bounded) until the access log has `count` lines: a line is written on 'finish'. */
async function logLines(count: number): Promise<void> {
  for (let tries = 0; lines.length < count && tries < 400; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('ETag and If-None-Match on every read', () => {
  it('each read answers a strong ETag; naming it answers 304 with no body; another tag answers 200', async () => {
    for (const path of readPaths(one)) {
      const first = await fetchRaw(`${one.url}${path}`);
      expect(first.status, path).toBe(200);
      const etag = first.headers.etag;
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      const again = await fetchRaw(`${one.url}${path}`, { headers: { 'if-none-match': etag! } });
      expect([again.status, again.body, again.headers.etag], path).toEqual([304, '', etag]);
      const weakInAList = await fetchRaw(`${one.url}${path}`, {
        headers: { 'if-none-match': `"other", W/${etag}` },
      });
      expect(weakInAList.status, path).toBe(304);
      const stale = await fetchRaw(`${one.url}${path}`, { headers: { 'if-none-match': '"stale"' } });
      expect([stale.status, stale.body], path).toEqual([200, first.body]);
      const head = await fetchRaw(`${one.url}${path}`, { method: 'HEAD' });
      expect(head.headers.etag, path).toBe(etag);
    }
  });

  it('two replicas of one history answer the same ETag for every read (docs copies of other dates too)', async () => {
    for (const path of readPaths(one)) {
      const [a, b] = await Promise.all([fetchRaw(`${one.url}${path}`), fetchRaw(`${two.url}${path}`)]);
      expect(b.body, path).toBe(a.body);
      expect(b.headers.etag, path).toBe(a.headers.etag);
    }
  });

  it('different bodies have different tags, and an error has none', async () => {
    const paths = readPaths(one).filter((path) => !path.startsWith('/docs'));
    const tags = await Promise.all(
      paths.map(async (path) => (await fetchRaw(`${one.url}${path}`)).headers.etag),
    );
    const bodies = await Promise.all(paths.map(async (path) => (await fetchRaw(`${one.url}${path}`)).body));
    expect(new Set(tags).size).toBe(new Set(bodies).size);
    const missing = await fetchRaw(`${one.url}/subjects/no.such-v1/versions`, {
      headers: { 'if-none-match': '*' },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });
});

describe('the access log of a replica', () => {
  it('has a request id per line, answered as x-request-id; a plain id from the client is kept', async () => {
    const before = lines.length;
    const fresh = await fetchRaw(`${one.url}/config`);
    const given = await fetchRaw(`${one.url}/config`, { headers: { 'x-request-id': 'lb-7f3a.42' } });
    await logLines(before + 2);
    const [first, second] = lines.slice(before);
    expect(first).toMatchObject({
      method: 'GET',
      path: '/config',
      status: 200,
      id: fresh.headers['x-request-id'],
    });
    expect(String(first!.id)).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toMatchObject({ id: 'lb-7f3a.42' });
    expect(given.headers['x-request-id']).toBe('lb-7f3a.42');
    expect(first).toHaveProperty('ms');
    expect(first).toHaveProperty('bytes', Buffer.byteLength(fresh.body));
  });

  it('masks query secrets and URL credentials, keeps the registry parameters', async () => {
    const before = lines.length;
    await fetchRaw(
      `${one.url}/subjects?subjectPrefix=account.&access_token=tok-SECRET-1&X-Amz-Signature=sig-SECRET-2`,
    );
    // An absolute-form request line, as a client sends through a proxy, with credentials in it.
    const port = new URL(one.url).port;
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `GET http://user:pw-SECRET-3@127.0.0.1:${port}/config HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`,
        ),
      );
      socket.on('data', () => {});
      socket.on('close', () => resolve());
    });
    await logLines(before + 2);
    const text = JSON.stringify(lines.slice(before));
    expect(text).not.toContain('SECRET');
    expect(lines[before]).toMatchObject({
      path: '/subjects?subjectPrefix=account.&access_token=***&X-Amz-Signature=***',
    });
    expect(lines[before + 1]).toMatchObject({ path: `http://***@127.0.0.1:${port}/config`, status: 200 });
  });

  it('logs a request whose client went away before its answer, marked aborted', async () => {
    const before = lines.length;
    const port = Number(new URL(one.url).port);
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /subjects/account.created-v1?token=SECRET-4 HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{',
        );
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('close', () => resolve());
    });
    await logLines(before + 1);
    expect(lines[before]).toMatchObject({
      method: 'POST',
      path: '/subjects/account.created-v1?token=***',
      aborted: true,
    });
  });
});

describe('errors of the server', () => {
  it('go to the sink it is given, never straight to process.stderr', async () => {
    const written = vi.spyOn(process.stderr, 'write');
    try {
      const answer = await fetchRaw(`${one.url}/mcp`, { method: 'POST', body: '{}' });
      expect(answer.status).toBe(500);
      expect(logged.join('\n')).toContain('internal error on POST /mcp: Error: mcp handler failed');
      expect(written.mock.calls.map(([text]) => String(text)).join('')).not.toContain('mcp handler failed');
    } finally {
      written.mockRestore();
    }
  });
});
