import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleFor } from '../../generators/emit/package/examples.js';
import type { Catalogue, FieldType } from '../../generators/model.js';
import { type RunningRegistry, seedHistory, startRegistry } from './serve-helpers.js';

/**
 * The `@kafkajs/confluent-schema-registry` client (3.9, the last release for Node 20) against `serve` on
 * the seed catalogue: what a producer and a consumer do, for every event.
 */

let registry: RunningRegistry;
let client: SchemaRegistry;
let catalogue: Catalogue;

beforeAll(async () => {
  catalogue = seedHistory().current;
  registry = await startRegistry();
  client = newClient();
});

/**
 * A client as a user sets it up: our schemas are JSON Schema 2020-12 with x- annotations, so it needs a
 * 2020 ajv that is not strict (and formats). One ajv per client: ajv refuses a second schema of one `$id`.
 */
function newClient(): SchemaRegistry {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return new SchemaRegistry({ host: registry.url }, { [SchemaType.JSON]: { ajvInstance: ajv } } as never);
}
afterAll(() => registry.close());

/** A value of the wrong type for a field of this type. */
function wrongValue(type: FieldType): unknown {
  return type.kind === 'string' ? 12345 : 'not the right type';
}

describe('@kafkajs/confluent-schema-registry against eventry serve', () => {
  it('every event: latest id, schema by id, encode a valid payload and decode it back, reject an invalid one', async () => {
    const keys = Object.keys(catalogue.events).sort();
    expect(keys.length).toBeGreaterThan(200);
    for (const key of keys) {
      const id = await client.getLatestSchemaId(key);
      expect(registry.state.subjects.get(key)?.at(-1)?.id).toBe(id);
      const schema = (await client.getSchema(id)) as unknown;
      expect(schema, key).toBeDefined();

      const payload = exampleFor(catalogue, key, 'full');
      const encoded = await client.encode(id, payload);
      // Confluent wire format: magic byte 0, then the id as a 32-bit big-endian int.
      expect(encoded[0]).toBe(0);
      expect(encoded.readInt32BE(1)).toBe(id);
      expect(await client.decode(encoded)).toEqual(payload);

      const first = catalogue.events[key]!.fields[0];
      const invalid = first ? { ...payload, [first.name]: wrongValue(first.type) } : [];
      await expect(client.encode(id, invalid), key).rejects.toThrow(/invalid payload/);
    }
  }, 120_000);

  it('the `<event key>-value` subject (TopicNameStrategy) names the same subject', async () => {
    const id = await client.getLatestSchemaId('account.created-v1-value');
    expect(id).toBe(await client.getLatestSchemaId('account.created-v1'));
  });

  it('an unknown subject is 404 with Confluent code 40401', async () => {
    await expect(client.getLatestSchemaId('no.such-v1')).rejects.toThrow(/Subject 'no.such-v1' not found/);
    const response = await fetch(`${registry.url}/subjects/no.such-v1/versions/latest`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/vnd.schemaregistry.v1+json');
    expect(await response.json()).toEqual({ error_code: 40401, message: "Subject 'no.such-v1' not found." });
  });

  it('register is refused with 42205 and says how schemas change here', async () => {
    const schema = registry.state.subjects.get('account.created-v1')!.at(-1)!.schema;
    const error = await newClient()
      .register({ type: SchemaType.JSON, schema }, { subject: 'account.created-v1' })
      .then(
        () => undefined,
        (caught: unknown) => caught as Error,
      );
    expect(error?.message).toMatch(/read-only.*edit the catalogue.*eventry check.*eventry version/);
    const raw = await fetch(`${registry.url}/subjects/account.created-v1/versions`, {
      method: 'POST',
      body: JSON.stringify({ schemaType: 'JSON', schema }),
    });
    expect(raw.status).toBe(422);
    expect(((await raw.json()) as { error_code: number }).error_code).toBe(42205);
  });
});
