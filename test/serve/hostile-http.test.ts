import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledToolkitPath, tempDir } from '../helpers.js';
import { releasedTwice } from '../schema-registry/released-repo.js';
import { startRegistry } from './serve-helpers.js';

/**
 * The fault suite's hostile HTTP set, fired at a real `eventry serve` process (the compiled CLI) whose
 * docs folder holds the traps a site can hold: a symlink loop, links leaving the site, a file where a
 * folder is expected. The server must answer every request (4xx, never 5xx or a closed socket) and
 * still be running at the end; nothing outside the site is ever served.
 */

const SECRET = 'TOP-SECRET-7f3a9c';

/** A docs site with traps, and a secret file beside it (outside the site). */
function trappedSite(): string {
  const dir = tempDir();
  const site = join(dir, 'site');
  mkdirSync(join(site, 'events'), { recursive: true });
  writeFileSync(join(site, 'index.html'), '<!doctype html><title>portal</title>\n');
  writeFileSync(join(site, 'events', 'index.html'), '<!doctype html><title>events</title>\n');
  writeFileSync(join(dir, 'secret.html'), `${SECRET}\n`);
  mkdirSync(join(dir, 'private'));
  writeFileSync(join(dir, 'private', 'index.html'), `${SECRET}\n`);
  symlinkSync('loop', join(site, 'loop'));
  symlinkSync('loop-b.html', join(site, 'loop-a.html'));
  symlinkSync('loop-a.html', join(site, 'loop-b.html'));
  symlinkSync(join(dir, 'secret.html'), join(site, 'outside.html'));
  symlinkSync('../secret.html', join(site, 'events', 'relative-outside.html'));
  symlinkSync(join(dir, 'private'), join(site, 'private'));
  symlinkSync('index.html', join(site, 'inside.html'));
  return site;
}

interface Served {
  url: string;
  port: number;
  child: ChildProcessWithoutNullStreams;
  exits: number;
  stderr: () => string;
}

/** `eventry serve --port 0 --docs SITE` in a released repository, once it printed its address. */
function serve(site: string): Promise<Served> {
  const repo = releasedTwice();
  const child = spawn(
    process.execPath,
    [compiledToolkitPath('scripts/eventry.js'), 'serve', '--port', '0', '--docs', site],
    { cwd: repo.dir, env: { ...process.env, NO_COLOR: '1' } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const served = { exits: 0 } as Served;
  child.once('exit', () => {
    served.exits += 1;
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^eventry: serving (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
      if (match)
        resolve(
          Object.assign(served, { url: match[1]!, port: Number(match[2]), child, stderr: () => stderr }),
        );
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before serving: ${stderr}`)));
  });
}

/** Writes raw bytes on a fresh connection; resolves with everything read until the server closes it. */
function raw(port: number, bytes: string | Buffer, waitMs = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.on('close', done);
    socket.on('error', done);
  });
}

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0);

const get = (path: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n${extra}\r\n`;

/** Docs paths that once killed the server or leaked, and their encoded variants. */
const HOSTILE_PATHS = [
  '/docs/index.html/x',
  '/docs/index.html/',
  '/docs/index.html/../index.html/x',
  '/docs/%00',
  '/docs/a%00b.html',
  '/docs/index.html%00.js',
  `/docs/${'a'.repeat(256)}`,
  `/docs/${'a'.repeat(300)}.html`,
  `/docs/${'é'.repeat(200)}`,
  `/docs/${'ab/'.repeat(2000)}x.html`,
  '/docs/loop',
  '/docs/loop/',
  '/docs/loop/x.html',
  '/docs/loop-a.html',
  '/docs/outside.html',
  '/docs/events/relative-outside.html',
  '/docs/private/',
  '/docs/private/index.html',
  '/docs/../package.json',
  '/docs/%2e%2e/package.json',
  '/docs/%2e%2e%2fpackage.json',
  '/docs/..%2f..%2f..%2f..%2fetc%2fpasswd',
  '/docs/%252e%252e/%252e%252e/etc/passwd',
  '/docs/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
  '/docs/%E0%A4',
  '/docs/%',
  '/docs//etc/passwd',
  '/docs/..\\..\\secret.html',
  '/docs/%5c..%5c..%5csecret.html',
  '/docs/events/..%2f..%2fsecret.html',
];

const METHODS = ['PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO', 'HEAD'];

/** Requests whose framing or headers are broken. */
const BAD_FRAMES: string[] = [
  'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n',
  'CONNECT /docs/ HTTP/1.1\r\nhost: localhost\r\n\r\n',
  get('/docs/', 'content-length: -1\r\n'),
  get('/docs/', 'content-length: abc\r\n'),
  get('/docs/', 'content-length: 1\r\ncontent-length: 2\r\n'),
  'POST /subjects/x HTTP/1.1\r\nhost: l\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
  get('/docs/', `x-big: ${'a'.repeat(20_000)}\r\n`),
  get('/docs/', 'x-nul: a\0b\r\n'),
  get('/docs/', 'bad header line\r\n'),
  get('/docs/', 'upgrade: websocket\r\nconnection: upgrade\r\n'),
  get('/docs/', 'expect: 100-continue\r\n'),
  get('/docs/', 'if-none-match: "\0"\r\n'),
  'GET /docs/ HTTP/1.1\r\nconnection: close\r\n\r\n',
  'GET http://evil.example/docs/outside.html HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n',
  'GET * HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n',
  'GET docs/outside.html HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n',
  'GET /docs/\r\n\r\n',
  'GET /docs/ HTTP/9.9\r\nhost: localhost\r\n\r\n',
  '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03',
  'GARBAGE\r\n\r\n',
  `GET /${'x'.repeat(70_000)} HTTP/1.1\r\nhost: localhost\r\n\r\n`,
];

describe('fault suite: hostile HTTP requests to eventry serve', () => {
  let served: Served;
  let fired = 0;
  const statuses = new Map<number, number>();
  const fire = async (bytes: string | Buffer): Promise<string> => {
    fired += 1;
    const answer = await raw(served.port, bytes);
    statuses.set(statusOf(answer), (statuses.get(statusOf(answer)) ?? 0) + 1);
    return answer;
  };

  beforeAll(async () => {
    served = await serve(trappedSite());
  }, 60_000);
  afterAll(() => {
    served?.child.kill('SIGTERM');
    console.log(
      `hostile HTTP: ${fired} requests fired, server exits: ${served?.exits}, statuses: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  });

  it('docs paths that once crashed the server (ENOTDIR, NUL, overlong, symlink loops) get a 4xx; links leaving the site are not served', async () => {
    for (const path of HOSTILE_PATHS) {
      for (const method of ['GET', 'HEAD']) {
        const answer = await fire(
          `${method} ${path} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n`,
        );
        const status = statusOf(answer);
        expect({ path, method, status }).toEqual({ path, method, status: expect.any(Number) });
        expect(status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(status, `${method} ${path}`).toBeLessThan(500);
        expect(answer).not.toContain(SECRET);
      }
    }
    // A link that stays inside the site is served as the file it names; dots after `?` are a query.
    expect(statusOf(await fire(get('/docs/inside.html')))).toBe(200);
    for (const path of ['/docs/?/../../secret.html', '/docs/#/../secret.html', '/docs/index.html?x=%00']) {
      const answer = await fire(get(path));
      expect([statusOf(answer), answer.includes('<title>portal</title>')]).toEqual([200, true]);
    }
    expect(served.exits).toBe(0);
  });

  it('every method on the portal: GET/HEAD read, everything else 405 (PUT with a body as DELETE)', async () => {
    for (const method of METHODS) {
      for (const body of ['', 'x=1']) {
        const length = body ? `content-length: ${body.length}\r\n` : '';
        const answer = await fire(
          `${method} /docs/index.html HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n${length}\r\n${body}`,
        );
        // A method Node's HTTP parser does not know is a 400 before any route sees it.
        const want = method === 'HEAD' ? 200 : method === 'FOO' ? 400 : 405;
        expect(statusOf(answer), `${method} ${JSON.stringify(body)}`).toBe(want);
      }
    }
  });

  it('broken framing, bad headers and CONNECT each get an HTTP answer, not a silently closed socket', async () => {
    for (const frame of BAD_FRAMES) {
      const answer = await fire(frame);
      const status = statusOf(answer);
      expect(status, JSON.stringify(frame.slice(0, 60))).toBeGreaterThanOrEqual(100);
      expect(status, JSON.stringify(frame.slice(0, 60))).toBeLessThan(500);
      expect(answer).not.toContain(SECRET);
    }
    expect(statusOf(await fire('CONNECT example.com:443 HTTP/1.1\r\nhost: x\r\n\r\n'))).toBe(405);
  });

  it('a fuzzed set of portal paths: always a 2xx-4xx answer, never the secret', async () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '..',
        '.',
        '',
        '%2e%2e',
        '%2f',
        '%00',
        '%',
        '%E0%A4',
        'index.html',
        'events',
        'loop',
        'loop-a.html',
        'outside.html',
        'private',
        'relative-outside.html',
        'a'.repeat(256),
      ),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
      fc.string({ unit: 'binary', maxLength: 8 }).map(encodeURIComponent),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 6 }), async (pieces) => {
        const answer = await fire(get(`/docs/${pieces.join('/')}`));
        const status = statusOf(answer);
        expect(status).toBeGreaterThanOrEqual(200);
        expect(status).toBeLessThan(500);
        expect(answer).not.toContain(SECRET);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('after all of it the server still answers and never exited', async () => {
    const subjects = await fetch(`${served.url}/subjects`);
    expect(subjects.status).toBe(200);
    expect((await fetch(`${served.url}/docs/`)).status).toBe(200);
    expect(served.exits).toBe(0);
    expect(served.stderr()).not.toMatch(/\n\s+at /);
  });
});

describe('a stalled request body is cut at the limit, with a 408', () => {
  it('bodyTimeoutMs: the answer comes once the limit passed, not tens of seconds later', async () => {
    const registry = await startRegistry(undefined, { bodyTimeoutMs: 400 });
    try {
      const port = Number(new URL(registry.url).port);
      const started = Date.now();
      const answer = await raw(
        port,
        'POST /subjects/account.created-v1 HTTP/1.1\r\nhost: l\r\ncontent-length: 100\r\n\r\n{"sch',
        20_000,
      );
      const waited = Date.now() - started;
      expect(statusOf(answer)).toBe(408);
      expect(answer).toContain('"error_code":408');
      expect(waited).toBeGreaterThanOrEqual(390);
      // Node's own timeout is checked on an interval and cuts late (see docs/decisions/0065).
      expect(waited).toBeLessThan(400 + 5_000);
    } finally {
      await registry.close();
    }
  }, 30_000);

  it('a body that keeps trickling in is cut at the limit too', async () => {
    const registry = await startRegistry(undefined, { bodyTimeoutMs: 400 });
    try {
      const port = Number(new URL(registry.url).port);
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write('POST /subjects/x HTTP/1.1\r\nhost: l\r\ncontent-length: 1000\r\n\r\n'),
        );
        const drip = setInterval(() => socket.writable && socket.write('a'), 50);
        let text = '';
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        const done = () => {
          clearInterval(drip);
          resolve(text);
        };
        socket.on('close', done);
        socket.on('error', done);
      });
      expect(statusOf(answer)).toBe(408);
    } finally {
      await registry.close();
    }
  }, 30_000);
});
