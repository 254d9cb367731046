import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../generators/model.js';
import { standaloneEventSchema } from '../../generators/schema/json-schema.js';
import { describeIncompatibility, judgeCatalogues } from '../../generators/schema-registry/compatibility.js';
import { type RunningRegistry, seedHistory, startRegistry } from './serve-helpers.js';

let registry: RunningRegistry;
beforeAll(async () => {
  registry = await startRegistry();
});
afterAll(() => registry.close());

const SUBJECT = 'account.created-v1';

function latestSchema(): Record<string, unknown> {
  return JSON.parse(registry.state.subjects.get(SUBJECT)!.at(-1)!.schema) as Record<string, unknown>;
}

/** The latest schema with one more string property. */
function withProperty(name: string, required: boolean): Record<string, unknown> {
  const schema = latestSchema();
  (schema.properties as Record<string, unknown>)[name] = { type: 'string' };
  if (required) schema.required = [...(schema.required as string[]), name];
  return schema;
}

async function post(path: string, body: unknown) {
  const response = await fetch(`${registry.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const compatibility = (schema: unknown, version = 'latest', verbose = true) =>
  post(`/compatibility/subjects/${SUBJECT}/versions/${version}${verbose ? '?verbose=true' : ''}`, {
    schemaType: 'JSON',
    schema: JSON.stringify(schema),
  });

describe('POST /compatibility (BACKWARD, the default level)', () => {
  it('the served schema itself is compatible', async () => {
    expect(await compatibility(latestSchema())).toEqual({
      status: 200,
      body: { is_compatible: true, messages: [] },
    });
  });

  it('an optional property added to the closed model is compatible', async () => {
    expect((await compatibility(withProperty('nickname', false))).body.is_compatible).toBe(true);
  });

  it("a required property added is incompatible; verbose messages give Confluent's difference, its path and whom it breaks", async () => {
    const { status, body } = await compatibility(withProperty('nickname', true));
    expect(status).toBe(200);
    expect(body.is_compatible).toBe(false);
    expect(body.messages).toEqual([
      'BACKWARD incompatible (against version 1): REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL at #/properties/nickname — consumers using the new schema cannot read data written with the old one.',
    ]);
    expect((await compatibility(withProperty('nickname', true), 'latest', false)).body).toEqual({
      is_compatible: false,
    });
  });

  it('gives the same verdict as `diff --level` from the one implementation', async () => {
    const current = seedHistory().current;
    const changed: Catalogue = structuredClone(current);
    const event = changed.events[SUBJECT]!;
    event.fields = [
      ...event.fields,
      { ...event.fields[0]!, name: 'nickname', type: { kind: 'string' }, required: true },
    ];
    const [verdict] = judgeCatalogues(current, changed, 'BACKWARD', 'STRICT').filter(
      (v) => v.event === SUBJECT,
    );
    const candidate = standaloneEventSchema(changed, SUBJECT);
    const { body } = await compatibility(candidate);
    expect(verdict!.status).toBe('incompatible');
    // The same Confluent differences; diff --level adds eventry's finding to its lines.
    expect(body.messages).toEqual(
      verdict!.incompatibilities.map((i) => describeIncompatibility({ ...i, finding: undefined }, 1)),
    );
  });

  it('keywords-refused-with-422: a nested open object, a pattern, a type list are judged as Confluent judges them', async () => {
    const schema = latestSchema();
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    const [name] = Object.keys(properties).filter((key) => properties[key]!.type === 'string');
    const patterned = structuredClone(schema);
    (patterned.properties as Record<string, Record<string, unknown>>)[name!]!.pattern = '^[a-z]+$';
    const pattern = await compatibility(patterned);
    expect(pattern.status).toBe(200);
    expect(pattern.body.messages).toEqual([
      expect.stringContaining(`PATTERN_ADDED at #/properties/${name}/pattern`),
    ]);
    const nullable = structuredClone(schema);
    (nullable.properties as Record<string, Record<string, unknown>>)[name!]!.type = ['string', 'null'];
    expect((await compatibility(nullable)).body).toEqual({ is_compatible: true, messages: [] });
    const nested = structuredClone(schema);
    (nested.properties as Record<string, unknown>).extra = {
      type: 'object',
      properties: { y: { type: 'string' } },
    };
    expect((await compatibility(nested)).body).toEqual({ is_compatible: true, messages: [] });
  });

  it('a look-up matches whatever the key order and white space', async () => {
    const schema = latestSchema();
    const reordered = Object.fromEntries(Object.entries(schema).reverse());
    const { status, body } = await post(`/subjects/${SUBJECT}`, {
      schemaType: 'JSON',
      schema: JSON.stringify(reordered, null, 3),
    });
    expect(status).toBe(200);
    expect(body.version).toBe(1);
    expect(body.id).toBe(registry.state.subjects.get(SUBJECT)!.at(-1)!.id);
  });

  it.each([
    ['a schema that is not JSON', () => ({ schemaType: 'JSON', schema: '{nope' }), 422, 42201],
    ['an Avro candidate', () => ({ schema: '{"type": "record"}' }), 422, 42201],
    [
      'a schema nested 40000 levels deep (a stack overflow before)',
      () => ({
        schemaType: 'JSON',
        schema: `{"type":"object","properties":{"a":${'{"items":'.repeat(40_000)}1${'}'.repeat(40_000)}}}`,
      }),
      422,
      42201,
    ],
    ['a body without schema', () => ({ schemaType: 'JSON' }), 422, 42201],
  ])('%s is 422 with a Confluent code', async (_name, body, status, code) => {
    const answer = await post(`/compatibility/subjects/${SUBJECT}/versions/latest`, body());
    expect(answer.status).toBe(status);
    expect(answer.body.error_code).toBe(code);
    expect(String(answer.body.message)).not.toMatch(/ at .*\.js:\d+/);
  });

  it('an invalid version is 42202, a missing one 40402, an unknown subject 40401', async () => {
    expect((await compatibility(latestSchema(), 'abc')).body.error_code).toBe(42202);
    expect((await compatibility(latestSchema(), '99')).body.error_code).toBe(40402);
    const unknown = await post('/compatibility/subjects/no.such-v1/versions/latest', {
      schemaType: 'JSON',
      schema: '{}',
    });
    expect(unknown).toEqual({
      status: 404,
      body: { error_code: 40401, message: "Subject 'no.such-v1' not found." },
    });
  });

  it('a body larger than the limit is 413, bad percent-encoding 400, writes 42205', async () => {
    const big = await post(`/subjects/${SUBJECT}`, 'x'.repeat((1 << 20) + 10));
    expect(big.status).toBe(413);
    expect(big.body.error_code).toBe(413);
    const bad = await fetch(`${registry.url}/subjects/%E0%A4%A`);
    expect(bad.status).toBe(400);
    for (const [method, path] of [
      ['DELETE', `/subjects/${SUBJECT}`],
      ['PUT', '/config'],
      ['PUT', `/config/${SUBJECT}`],
      ['DELETE', `/subjects/${SUBJECT}/versions/1`],
    ]) {
      const response = await fetch(`${registry.url}${path}`, { method, body: '{"compatibility": "NONE"}' });
      expect(response.status, `${method} ${path}`).toBe(422);
      expect(((await response.json()) as { error_code: number }).error_code).toBe(42205);
    }
  });
});
