import { readFileSync } from 'node:fs';
import {
  JsonDeserializer,
  JsonSerializer,
  SchemaRegistryClient,
  SerdeType,
} from '@confluentinc/schemaregistry';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleFor } from '../../generators/emit/package/examples.js';
import { type History, loadHistory } from '../../generators/schema-registry/history.js';
import type { SubjectVersion } from '../../generators/schema-registry/registry.js';
import { releasedTwice } from '../schema-registry/released-repo.js';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

/**
 * Kafka clients across the versions of a subject: a repository released twice (1.0.0, then 1.1.0 with an
 * optional field added to `account.created-v1` and the events derived from it), so several subjects
 * have two versions. A producer and a consumer keep one client (one ajv) for the whole process, as the
 * README shows; before the served schemas stopped sharing one `$id` per subject, version 2 failed with
 * `schema with key or id "account.created-v1.json" already exists`.
 */

let history: History;
let registry: RunningRegistry;
beforeAll(async () => {
  const result = loadHistory({ cwd: releasedTwice().dir, env: process.env, catalogue: 'catalogue' });
  if (!result.ok) throw new Error(`the released fixture does not load: ${JSON.stringify(result)}`);
  history = result.history;
  registry = await startRegistry(history);
});
afterAll(() => registry.close());

/** A payload every version of the fixture's events accepts: the required fields only. */
const payloadFor = (subject: string) => exampleFor(history.current, subject, 'minimal');

/** Every subject version of the history, oldest first. */
const allVersions = (): SubjectVersion[] => [...registry.state.historyOrder()];

/** A kafkajs client as the README sets it up: one 2020 ajv, not strict, with formats. */
function kafkajsClient(): SchemaRegistry {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return new SchemaRegistry({ host: registry.url }, { [SchemaType.JSON]: { ajvInstance: ajv } } as never);
}

/** Confluent's client: its serdes compile each schema with their own ajv, given these options. */
const confluentConfig = { validate: true, strict: false, formats: fullFormats } as const;

describe('Kafka clients across the versions of a subject', () => {
  it('the fixture has subjects with two versions (else this test proves nothing)', () => {
    expect(registry.state.subjects.get('account.created-v1')?.map((v) => v.version)).toEqual([1, 2]);
    // More versions than event key subjects (the event types' subjects hold no versions of their own).
    const keys = [...registry.state.subjects.keys()].filter(
      (subject) => !registry.state.isTypeSubject(subject),
    );
    expect(allVersions().length).toBeGreaterThan(keys.length);
  });

  it('kafkajs with one ajv encodes and decodes with every version of every subject', async () => {
    const client = kafkajsClient();
    for (const version of allVersions()) {
      const payload = payloadFor(version.subject);
      const label = `${version.subject} version ${version.version}`;
      const encoded = await client.encode(version.id, payload).catch((error: Error) => {
        throw new Error(`${label}: ${error.message}`);
      });
      expect(encoded.readInt32BE(1), label).toBe(version.id);
      expect(await client.decode(encoded), label).toEqual(payload);
    }
  });

  it('a kafkajs consumer that met version 2 first decodes data written with version 1', async () => {
    const [v1, v2] = registry.state.subjects.get('account.created-v1')!;
    const payload = payloadFor('account.created-v1');
    const old = await kafkajsClient().encode(v1!.id, payload);
    const newer = await kafkajsClient().encode(v2!.id, { ...payload, nickname: 'Ann' });
    const consumer = kafkajsClient();
    expect(await consumer.decode(newer)).toEqual({ ...payload, nickname: 'Ann' });
    expect(await consumer.decode(old)).toEqual(payload);
  });

  it('@confluentinc/schemaregistry encodes and decodes with every version, in one process', async () => {
    const client = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
    const deserializer = new JsonDeserializer(client, SerdeType.VALUE, confluentConfig);
    for (const version of allVersions()) {
      const serializer = new JsonSerializer(client, SerdeType.VALUE, {
        ...confluentConfig,
        useSchemaId: version.id,
        autoRegisterSchemas: false,
      });
      const payload = payloadFor(version.subject);
      const bytes = await serializer.serialize(version.subject, payload);
      expect(bytes.readInt32BE(1), version.subject).toBe(version.id);
      expect(await deserializer.deserialize(version.subject, bytes)).toEqual(payload);
    }
  });

  it('formats are checked: 2024-02-30 is not a date, for either client', async () => {
    const subject = 'account.created-v1';
    const latest = registry.state.subjects.get(subject)!.at(-1)!;
    const payload = payloadFor(subject);
    const client = kafkajsClient();
    await expect(client.encode(latest.id, { ...payload, opened_on: '2024-02-28' })).resolves.toBeDefined();
    await expect(client.encode(latest.id, { ...payload, opened_on: '2024-02-30' })).rejects.toThrow(
      /invalid payload/,
    );
    const serializer = new JsonSerializer(
      new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 }),
      SerdeType.VALUE,
      { ...confluentConfig, useSchemaId: latest.id, autoRegisterSchemas: false },
    );
    await expect(serializer.serialize(subject, { ...payload, opened_on: '2024-02-30' })).rejects.toThrow(
      /format/,
    );
  });

  it('every id served before the schemas lost their shared `$id` still answers the same bytes', async () => {
    // Recorded from this fixture's releases by `serve` as it was before (commit 8228239).
    const recorded = JSON.parse(
      readFileSync(new URL('fixtures/ids-served-before-1.json', import.meta.url), 'utf8'),
    ) as { versions: Record<string, number>; ids: Record<string, string> };
    expect(Object.keys(recorded.ids).length).toBeGreaterThan(10);
    for (const [id, body] of Object.entries(recorded.ids)) {
      const response = await fetch(`${registry.url}/schemas/ids/${id}`);
      expect(response.status, `id ${id}`).toBe(200);
      expect(await response.text(), `id ${id}`).toBe(body);
    }
    // A consumer reading old data decodes it with the old text, in the same client as new data.
    const client = kafkajsClient();
    const old = Buffer.concat([
      Buffer.from([0, 0, 0, 0, 0]),
      Buffer.from(JSON.stringify(payloadFor('account.created-v1'))),
    ]);
    old.writeInt32BE(recorded.versions['account.created-v1@1']!, 1);
    expect(await client.decode(old)).toEqual(payloadFor('account.created-v1'));
    const latest = registry.state.subjects.get('account.created-v1')!.at(-1)!;
    expect(await client.decode(await client.encode(latest.id, payloadFor('account.created-v1')))).toEqual(
      payloadFor('account.created-v1'),
    );
  });
});
