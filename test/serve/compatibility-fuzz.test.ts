import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

/**
 * Fuzz of `POST /compatibility` bodies: generated JSON Schemas with local refs (to `$defs`, to the
 * root, to themselves), cycles, deep nesting, large enums and unions, keywords of the wrong type,
 * remote refs, bad pointers, and bodies that are not JSON at all. Every answer is a coded 200 or 4xx
 * in time; none is a 5xx, an internal error, a hang, or the server gone.
 */

let registry: RunningRegistry;
beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(() => registry.close());

const SUBJECT = 'account.created-v1';
const RUNS = 240;

const refs = fc.constantFrom(
  '#',
  '#/$defs/a',
  '#/$defs/b',
  '#/definitions/a',
  '#/properties/x',
  '#/$defs/missing',
  '#/%E0%A4%A',
  '#/$defs/a/properties/x',
  '#/anyOf/0',
  'https://example.com/remote.json',
  'other.json#/x',
  '#/__proto__',
  '#/constructor',
);

/** Keyword values that are right, and values of the wrong type. */
const oddValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.constant([]),
  fc.constant({}),
);

const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean(),
    fc.record({ $ref: refs }),
    fc.record({
      type: fc.constantFrom('string', 'integer', 'number', 'object', 'array', 'boolean', 'null', 'objekt'),
    }),
    fc.record({
      type: fc.constant(['string', 'null']),
      maxLength: oddValue,
      pattern: fc.constantFrom('^a+$', '(', '['),
    }),
    fc.record({ enum: fc.oneof(fc.array(oddValue, { maxLength: 6 }), oddValue) }),
    fc.record({ const: oddValue, default: oddValue }),
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.constantFrom('x', 'y', 'account_number', '__proto__'), tie('schema'), {
          maxKeys: 3,
        }),
        required: fc.oneof(fc.constant(['x']), oddValue),
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
        patternProperties: fc.dictionary(fc.constantFrom('^x', '(', '[a-', '^y$'), tie('schema'), {
          maxKeys: 2,
        }),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({
      type: fc.constant('array'),
      items: fc.oneof(tie('schema'), fc.array(tie('schema'), { maxLength: 3 })),
    }),
    fc.record({ anyOf: fc.array(tie('schema'), { maxLength: 4 }) }),
    fc.record({ allOf: fc.oneof(fc.array(tie('schema'), { maxLength: 3 }), oddValue) }),
    fc.record({ oneOf: fc.array(tie('schema'), { maxLength: 3 }), not: tie('schema') }),
    fc.record({ $ref: refs, $defs: fc.record({ a: tie('schema'), b: fc.record({ $ref: refs }) }) }),
    fc.record({ minimum: oddValue, exclusiveMaximum: oddValue, multipleOf: oddValue, maxItems: oddValue }),
  ),
}));

/** A whole candidate: a generated schema, often with `$defs` and a `$schema`, or something stranger. */
const candidate = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({ root: schema, defs: fc.option(fc.record({ a: schema, b: schema })), modern: fc.boolean() })
      .map(({ root, defs, modern }) =>
        JSON.stringify(
          root !== null && typeof root === 'object'
            ? {
                ...(modern ? { $schema: 'https://json-schema.org/draft/2020-12/schema' } : {}),
                ...root,
                ...(defs ? { $defs: defs, definitions: defs } : {}),
              }
            : root,
        ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 65, max: 400 })
      .map((depth) => `${'{"not":'.repeat(depth)}{}${'}'.repeat(depth)}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1_000, max: 60_000 })
      .map((n) => JSON.stringify({ enum: Array.from({ length: n }, (_, i) => `v${i}`) })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 100, max: 3_000 }).map((n) =>
      JSON.stringify({
        anyOf: Array.from({ length: n }, (_, i) => ({ $ref: `#/$defs/d${i % 50}` })),
        $defs: Object.fromEntries(
          Array.from({ length: 50 }, (_, i) => [`d${i}`, { $ref: `#/$defs/d${(i + 1) % 50}` }]),
        ),
      }),
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

/** A request body: mostly a well-formed request around the candidate, sometimes a broken one. */
const body = fc.oneof(
  { weight: 8, arbitrary: candidate.map((text) => JSON.stringify({ schemaType: 'JSON', schema: text })) },
  { weight: 1, arbitrary: candidate.map((text) => JSON.stringify({ schema: text })) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constant('{"schema": 5}'),
      fc.constant('[]'),
      fc.constant('{"schemaType":"JSON","schema":"{"}'),
    ),
  },
);

describe('POST /compatibility under generated bodies', () => {
  it(`${RUNS} bodies: no 5xx, no internal error, no hang, the server still up`, async () => {
    const tally = {
      total: 0,
      fiveXX: 0,
      internal: 0,
      hangs: 0,
      uncoded: 0,
      statuses: new Map<number, number>(),
    };
    const version = fc.constantFrom('latest', '1', '', '99');
    await fc.assert(
      fc.asyncProperty(body, version, fc.boolean(), async (text, v, verbose) => {
        tally.total++;
        const path = `/compatibility/subjects/${SUBJECT}/versions${v ? `/${v}` : ''}${verbose ? '?verbose=true' : ''}`;
        let response: Response;
        try {
          response = await fetch(`${registry.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
            body: text,
            signal: AbortSignal.timeout(30_000),
          });
        } catch {
          tally.hangs++;
          return;
        }
        const answer = (await response.json()) as Record<string, unknown>;
        tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
        if (response.status >= 500) tally.fiveXX++;
        if (/internal/i.test(String(answer.message ?? ''))) tally.internal++;
        if (response.status !== 200 && typeof answer.error_code !== 'number') tally.uncoded++;
      }),
      { numRuns: RUNS, seed: 48, endOnFailure: true },
    );
    const health = await fetch(`${registry.url}/healthz`);
    expect(health.status).toBe(200);
    expect({ ...tally, statuses: undefined }).toEqual({
      total: RUNS,
      fiveXX: 0,
      internal: 0,
      hangs: 0,
      uncoded: 0,
      statuses: undefined,
    });
    // The corpus reaches both verdicts and the refusals, not one answer for everything.
    expect(tally.statuses.get(200)).toBeGreaterThan(10);
    expect(tally.statuses.get(422)).toBeGreaterThan(10);
  }, 600_000);
});
