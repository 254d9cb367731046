import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

/**
 * The access log's `bytes` is the number of body bytes the client received, for every kind of answer:
 * a precomputed hot route, a computed one, an error, a docs file, HEAD. It used to read the
 * `content-length` header, which the hot routes set through `writeHead` (so it logged 0 for them).
 */

let registry: RunningRegistry;
const lines: Record<string, unknown>[] = [];
beforeAll(async () => {
  const docs = tempDir('eventry-docs-');
  writeFileSync(join(docs, 'index.html'), `<!doctype html><title>docs</title>${'é'.repeat(3000)}\n`);
  registry = await startRegistry(undefined, {
    docsDir: docs,
    accessLog: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
});
afterAll(() => registry.close());

/** Sends a request and returns the body bytes received and the log line written for it. */
async function sentAndLogged(path: string, init: RequestInit = {}) {
  const before = lines.length;
  const response = await fetch(`${registry.url}${path}`, init);
  const received = (await response.arrayBuffer()).byteLength;
  // The line is written on 'finish', which may come just after the client has the last byte.
  for (let tries = 0; lines.length === before && tries < 200; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(lines.length).toBe(before + 1);
  return { status: response.status, received, logged: lines.at(-1)! };
}

describe('the access log', () => {
  it('logs the body bytes actually sent, for every kind of answer', async () => {
    const latest = registry.state.subjects.get('account.created-v1')!.at(-1)!;
    const cases: [string, RequestInit?][] = [
      [`/schemas/ids/${latest.id}`],
      ['/subjects/account.created-v1/versions/latest'],
      ['/subjects/account.created-v1-value/versions/1'],
      ['/subjects?subjectPrefix=account.'],
      ['/schemas/ids/1'],
      ['/subjects/no.such-v1/versions'],
      ['/docs/'],
      [
        '/subjects/account.created-v1',
        { method: 'POST', body: JSON.stringify({ schemaType: 'JSON', schema: latest.schema }) },
      ],
      [`/schemas/ids/${latest.id}`, { method: 'HEAD' }],
    ];
    for (const [path, init] of cases) {
      const { received, logged, status } = await sentAndLogged(path, init);
      const label = `${init?.method ?? 'GET'} ${path}`;
      expect(logged, label).toMatchObject({ path, status, bytes: received });
      if (init?.method !== 'HEAD') expect(received, label).toBeGreaterThan(0);
    }
  });
});
