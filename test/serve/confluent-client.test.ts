import {
  JsonDeserializer,
  JsonSerializer,
  SchemaRegistryClient,
  SerdeType,
} from '@confluentinc/schemaregistry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleFor } from '../../generators/emit/package/examples.js';
import { type RunningRegistry, seedHistory, startRegistry } from './serve-helpers.js';

/** Confluent's own JavaScript client (`@confluentinc/schemaregistry` 1.10) against `serve` on the seed catalogue. */

let registry: RunningRegistry;
let client: SchemaRegistryClient;
beforeAll(async () => {
  registry = await startRegistry();
  client = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
});
afterAll(() => registry.close());

const SUBJECT = 'account.created-v1';

describe('@confluentinc/schemaregistry against eventry serve', () => {
  it('latest metadata, the schema by id, and the metadata route, for every event', async () => {
    const catalogue = seedHistory().current;
    for (const key of Object.keys(catalogue.events).sort()) {
      const latest = await client.getLatestSchemaMetadata(key);
      const served = registry.state.subjects.get(key)!.at(-1)!;
      expect(latest).toMatchObject({
        id: served.id,
        version: served.version,
        schemaType: 'JSON',
        subject: key,
      });
      const byId = await client.getBySubjectAndId(key, latest.id!);
      expect(byId.schema).toBe(served.schema);
      expect(byId.schemaType).toBe('JSON');
    }
    const withMetadata = await client.getLatestWithMetadata(SUBJECT, {});
    expect(withMetadata.version).toBe(1);
    expect(await client.getAllVersions(SUBJECT)).toEqual([1]);
    expect(await client.getCompatibility(SUBJECT)).toBe('BACKWARD');
  });

  it('compatibility: the same schema passes, one with a new required property fails', async () => {
    const schema = JSON.parse(registry.state.subjects.get(SUBJECT)!.at(-1)!.schema) as Record<
      string,
      unknown
    >;
    expect(
      await client.testSubjectCompatibility(SUBJECT, { schemaType: 'JSON', schema: JSON.stringify(schema) }),
    ).toBe(true);
    (schema.properties as Record<string, unknown>).nickname = { type: 'string' };
    schema.required = [...(schema.required as string[]), 'nickname'];
    const candidate = { schemaType: 'JSON', schema: JSON.stringify(schema) };
    expect(await client.testSubjectCompatibility(SUBJECT, candidate)).toBe(false);
    expect(await client.testCompatibility(SUBJECT, 1, candidate)).toBe(false);
  });

  it('register is refused with 42205', async () => {
    const schema = registry.state.subjects.get(SUBJECT)!.at(-1)!.schema;
    await expect(client.register(SUBJECT, { schemaType: 'JSON', schema })).rejects.toMatchObject({
      status: 422,
      errorCode: 42205,
    });
  });

  it('its JSON serde serialises with the latest schema and deserialises by id', async () => {
    const catalogue = seedHistory().current;
    const topic = SUBJECT; // TopicNameStrategy: subject `account.created-v1-value`, served as the same subject
    const serializer = new JsonSerializer(client, SerdeType.VALUE, {
      useLatestVersion: true,
      autoRegisterSchemas: false,
    });
    const deserializer = new JsonDeserializer(client, SerdeType.VALUE, {});
    const payload = exampleFor(catalogue, SUBJECT, 'full');
    const bytes = await serializer.serialize(topic, payload);
    expect(bytes.readInt32BE(1)).toBe(registry.state.subjects.get(SUBJECT)!.at(-1)!.id);
    expect(await deserializer.deserialize(topic, bytes)).toEqual(payload);
  });
});
