import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

let registry: RunningRegistry;
beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(() => registry.close());

/** One raw request (node:http, so paths go out exactly as generated). */
function send(
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; type: string; text: string }> {
  const url = new URL(registry.url);
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-length': Buffer.byteLength(body) };
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const segment = fc.oneof(
  fc.constantFrom(
    'subjects',
    'schemas',
    'ids',
    'versions',
    'latest',
    'schema',
    'config',
    'mode',
    'compatibility',
  ),
  fc.constantFrom(
    'account.created-v1',
    'account.created-v1-value',
    '-1',
    '0',
    '2147483648',
    '%E0%A4',
    '..',
    '',
  ),
  fc.string().map(encodeURIComponent),
);

describe('hostile requests to eventry serve', () => {
  it('any method, path and body: a coded JSON answer, never a 500 or a stack trace', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        fc.array(segment, { maxLength: 6 }),
        fc.option(
          fc.oneof(
            fc.string(),
            fc.json(),
            fc.record({ schemaType: fc.string(), schema: fc.string() }).map((r) => JSON.stringify(r)),
          ),
        ),
        async (method, parts, body) => {
          // Bodies on every method, kept-alive sockets reused: an unread body would break the next request.
          const answer = await send(method, `/${parts.join('/')}`, body ?? undefined);
          expect(answer.status).toBeLessThan(500);
          if (answer.type.startsWith('text/html')) return;
          const parsed = JSON.parse(answer.text) as Record<string, unknown>;
          if (answer.status >= 400) {
            expect(typeof parsed.error_code).toBe('number');
            expect(String(parsed.message)).not.toMatch(/\n\s+at /);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});

describe('malformed HTTP', () => {
  it('gets a Confluent error body and a closed connection, not a bare socket reset', async () => {
    const { connect } = await import('node:net');
    const url = new URL(registry.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.write('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe(
      '{"error_code":400,"message":"Malformed HTTP request."}',
    );
  });
});
