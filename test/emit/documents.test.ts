import { Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildAsyncApi } from '../../generators/emit/asyncapi.js';
import { buildOpenApi } from '../../generators/emit/openapi.js';
import { EXTENSION_KEYWORDS, standaloneEventSchema } from '../../generators/schema/json-schema.js';
import { fixturePath, loadValid, REPO } from '../helpers.js';

const real = loadValid(`${REPO}/catalogue`);
const small = loadValid(fixturePath('small'));

/** ajv as strict as the build: a misspelt keyword anywhere fails. */
function strictAjv() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addVocabulary([...EXTENSION_KEYWORDS]);
  return ajv;
}

/** Compiles every component schema, resolving `#/components/schemas/X` references between them. */
function compileComponents(schemas: Record<string, unknown>) {
  const ajv = strictAjv();
  const rewritten = JSON.parse(
    JSON.stringify(schemas).replaceAll('"#/components/schemas/', '"components.json#/$defs/'),
  );
  ajv.addSchema({ $id: 'components.json', $defs: rewritten });
  return Object.keys(schemas).map((name) => ajv.compile({ $ref: `components.json#/$defs/${name}` }));
}

describe.each([
  ['seed catalogue', real],
  ['small fixture', small],
])('%s', (_name, model) => {
  const openapi = buildOpenApi(model) as { components: { schemas: Record<string, Record<string, unknown>> } };
  const asyncapi = buildAsyncApi(model);

  it('passes an OpenAPI 3.1 validator', async () => {
    const result = await new Validator().validate(openapi as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('passes @asyncapi/parser with no errors', async () => {
    const diagnostics = await new Parser().validate(JSON.stringify(asyncapi));
    expect(
      diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`),
    ).toEqual([]);
  });

  it('compiles every component schema with ajv 2020 in strict mode', () => {
    const compiled = compileComponents(openapi.components.schemas);
    expect(compiled).toHaveLength(Object.keys(model.events).length + Object.keys(model.shapes).length);
  });

  it('compiles every standalone event schema with ajv 2020 in strict mode', () => {
    const ajv = strictAjv();
    for (const key of Object.keys(model.events))
      expect(() => ajv.compile(standaloneEventSchema(model, key))).not.toThrow();
  });

  it('keys components exactly by event key and shape name, with the platform identification', () => {
    const schemas = openapi.components.schemas;
    expect(Object.keys(schemas).sort()).toEqual(
      [...Object.keys(model.events), ...Object.keys(model.shapes)].sort(),
    );
    for (const event of Object.values(model.events)) {
      expect(schemas[event.key]).toMatchObject({
        title: event.title,
        'x-event-type': event.type,
        'x-event-version': event.version,
        'x-group': event.group,
      });
      expect(typeof schemas[event.key]!.description).toBe('string');
    }
  });

  it('closes every event and shape except the partial event and free objects; never nullable', () => {
    const text = JSON.stringify(openapi);
    expect(text).not.toContain('"null"');
    expect(text).not.toContain('nullable');
    for (const [name, schema] of Object.entries(openapi.components.schemas)) {
      const partial = model.events[name]?.partial !== undefined;
      expect(schema.additionalProperties, name).toBe(partial ? undefined : false);
    }
  });
});

describe('AsyncAPI document', () => {
  it('has a channel, a send operation and a message per event, referencing the shared schemas', () => {
    const doc = buildAsyncApi(small) as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(doc.channels!)).toEqual(Object.keys(small.events).sort());
    expect(doc.operations!['send.account.created-v1']).toMatchObject({
      action: 'send',
      channel: { $ref: '#/channels/account.created-v1' },
    });
    expect(doc.components!.messages!['account.created-v1']).toMatchObject({
      payload: { $ref: '#/components/schemas/account.created-v1' },
    });
  });
});

describe('the published contract', () => {
  const validate = (key: string, payload: unknown) =>
    strictAjv().validate(standaloneEventSchema(small, key), payload);

  it.each([
    [
      'a valid payload',
      'billing.ledger.entry_posted-v1',
      { ledger: { account: { number: 'A-1' }, number: 'L-1' } },
      true,
    ],
    [
      'an unknown top-level field',
      'billing.ledger.entry_posted-v1',
      { ledger: { account: { number: 'A' }, number: 'L' }, x: 1 },
      false,
    ],
    [
      'an unknown field inside a shape',
      'billing.ledger.entry_posted-v1',
      { ledger: { account: { number: 'A', x: 1 }, number: 'L' } },
      false,
    ],
    [
      'anything inside a free object',
      'account.removed-v2',
      { account_number: 'A', account_user_emails: [], reason: 'r', changes: { any: { thing: [1] } } },
      true,
    ],
    [
      'null for an optional field',
      'account.created-v1',
      { account_number: 'A', account_user_emails: [], is_imported: null },
      false,
    ],
    ['unknown fields in the partial event', 'meterpoint.gas.partial-v1', { mprn: '1', more: 'fields' }, true],
    [
      'a declared date format',
      'account.created-v1',
      { account_number: 'A', account_user_emails: [], opened_on: '2026-13-45' },
      false,
    ],
    [
      'an enum value',
      'account.created-v1',
      { account_number: 'A', account_user_emails: [], status: 'open' },
      false,
    ],
  ])('%s', (_name, key, payload, valid) => {
    expect(validate(key, payload)).toBe(valid);
  });

  it('puts format only where the source declares it', () => {
    const schema = JSON.stringify(standaloneEventSchema(small, 'account.created-v1'));
    expect(schema.match(/"format"/g)).toHaveLength(1);
    expect(JSON.stringify(buildOpenApi(real))).not.toContain('"format"');
  });
});
