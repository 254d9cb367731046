import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

/**
 * Bounded work per request: a client's schema is resolved in time linear in its size, within limits
 * answered 42210, a `$ref` cycle is 42201, and a check runs on a thread of its own, so `/healthz`
 * answers at once while the heaviest schema allowed is judged.
 */

let registry: RunningRegistry;
beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(() => registry.close());

const SUBJECT = 'account.created-v1';

async function check(schema: string) {
  const response = await fetch(`${registry.url}/compatibility/subjects/${SUBJECT}/versions/latest`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ schemaType: 'JSON', schema }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * The shape that froze the server: many `$ref`s into a large `$defs` (resolution once copied the
 * whole `$defs` per `$ref`), as large as the limits allow and under the 1 MiB body limit.
 */
function refChain(defs: number, refs: number): string {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < defs; i++) {
    $defs[`d${i}`] = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { $ref: `#/$defs/d${(i + 1) % defs}` } },
    };
  }
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < refs - defs; i++) properties[`p${i}`] = { $ref: `#/$defs/d${i % defs}` };
  return JSON.stringify({ type: 'object', properties, $defs });
}

/** Polls `/healthz` until `work` settles; every answer's latency in ms. */
async function healthWhile<T>(work: Promise<T>): Promise<{ result: T; latencies: number[] }> {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const response = await fetch(`${registry.url}/healthz`);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { result: await settled, latencies };
}

describe('POST /compatibility: bounded work', () => {
  it('a $ref cycle is an invalid schema (422 42201) that says so, not a 500', async () => {
    for (const schema of [
      '{"$ref":"#"}',
      '{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}',
      '{"type":"object","properties":{"x":{"$ref":"#/properties/x"}}}',
    ]) {
      const { status, body } = await check(schema);
      expect(status, schema).toBe(422);
      expect(body.error_code, schema).toBe(42201);
      expect(body.message, schema).toMatch(/\$ref cycle/);
    }
  });

  it('a recursive schema (a $ref with a schema between) is still judged', async () => {
    const { status, body } = await check(
      '{"type":"object","properties":{"next":{"$ref":"#"},"name":{"type":"string"}}}',
    );
    expect(status).toBe(200);
    expect(typeof body.is_compatible).toBe('boolean');
  });

  it('a schema over the limits is 422 42210, naming the limit', async () => {
    const nodes = JSON.stringify({ anyOf: Array.from({ length: 20_001 }, () => ({})) });
    const refs = refChain(10, 2_100);
    for (const [schema, limit] of [
      [nodes, /more than 20000 JSON objects/],
      [refs, /more than 2000 \$ref/],
    ] as const) {
      const { status, body } = await check(schema);
      expect(status).toBe(422);
      expect(body.error_code).toBe(42210);
      expect(body.message).toMatch(limit);
    }
  });

  it('/healthz answers within 100 ms while the heaviest schemas allowed are judged', async () => {
    const heavy = [
      refChain(1_900, 2_000),
      JSON.stringify({
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 19_000 }, (_, i) => [`f${i}`, { type: 'string' }]),
        ),
        required: Array.from({ length: 19_000 }, (_, i) => `f${i}`),
      }),
    ];
    for (const schema of heavy) expect(Buffer.byteLength(schema)).toBeLessThan(1 << 20);
    await (await fetch(`${registry.url}/healthz`)).arrayBuffer();
    const { result, latencies } = await healthWhile(Promise.all(heavy.map(check)));
    for (const { status, body } of result) {
      expect(status).toBe(200);
      expect(typeof body.is_compatible).toBe('boolean');
    }
    // The server shares this process and a busy machine with the client: each answer is bounded, and
    // nine in ten come within 100 ms (a check on the server's thread blocked every poll for seconds).
    latencies.sort((a, b) => a - b);
    expect(latencies.length).toBeGreaterThan(5);
    expect(latencies[Math.floor(latencies.length * 0.9)]).toBeLessThan(100);
    expect(latencies.at(-1)).toBeLessThan(1_000);
  });
});
