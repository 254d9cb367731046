import { join } from 'node:path';
import {
  JsonDeserializer,
  JsonSerializer,
  SchemaRegistryClient,
  SerdeType,
} from '@confluentinc/schemaregistry';
import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleFor } from '../../generators/emit/package/examples.js';
import type { Catalogue } from '../../generators/model.js';
import { exportOf, exportRepo, historyOf, ODD_KEY } from './export-fixture.js';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';
import { type StaticHost, startStaticHost } from './static-host.js';

/**
 * Both Kafka registry clients against a plain static file server over `eventry registry export`, and
 * against `eventry serve` on the same history: ids, subjects and versions resolve the same.
 */

let registry: RunningRegistry;
let host: StaticHost;
let catalogue: Catalogue;

beforeAll(async () => {
  const repo = exportRepo();
  const history = historyOf(repo);
  catalogue = history.current;
  const { out } = exportOf(repo);
  registry = await startRegistry(history);
  host = await startStaticHost(join(out, 'current'));
}, 60_000);
afterAll(async () => {
  await registry?.close();
  await host?.close();
});

/** Every subject name a client may ask for: each event key, and its TopicNameStrategy name. */
const names = () => [...registry.state.subjects.keys()].flatMap((key) => [key, `${key}-value`]);

function kafkajs(url: string): SchemaRegistry {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  return new SchemaRegistry({ host: url }, { [SchemaType.JSON]: { ajvInstance: ajv } } as never);
}

/** The event a subject's latest version is: its key, or for an event type's subject its newest version's. */
const eventOf = (subject: string): string =>
  registry.state.subjects.get(subject)!.at(-1)!.eventKey ?? subject;

describe('@kafkajs/confluent-schema-registry against the static export', () => {
  it('latest ids, every version, schemas by id: encode on the export, decode on serve and back', async () => {
    const onStatic = kafkajs(host.url);
    const onServe = kafkajs(registry.url);
    expect(names()).toContain(`${ODD_KEY}-value`);
    for (const name of names()) {
      const id = await onStatic.getLatestSchemaId(name);
      expect(id, name).toBe(await onServe.getLatestSchemaId(name));
      const key = registry.state.resolveSubject(name)!;
      for (const version of registry.state.subjects.get(key)!) {
        expect(await onStatic.getRegistryId(name, version.version)).toBe(version.id);
      }
      const payload = exampleFor(catalogue, eventOf(key), 'full');
      const encoded = await onStatic.encode(id, payload);
      expect(await onServe.decode(encoded)).toEqual(payload);
      expect(await onStatic.decode(await onServe.encode(id, payload))).toEqual(payload);
    }
    // Every id the history ever had resolves to the same schema (a fresh ajv each: the texts served before
    // the `$id` change share one `$id`, which one ajv refuses twice).
    for (const id of registry.state.schemas.keys()) {
      const [fromStatic, fromServe] = [
        await kafkajs(host.url).getSchema(id),
        await kafkajs(registry.url).getSchema(id),
      ];
      expect(JSON.stringify(fromStatic), `${id}`).toBe(JSON.stringify(fromServe));
    }
  }, 60_000);
});

describe('@confluentinc/schemaregistry against the static export', () => {
  it('metadata, versions, ids and compatibility levels are what serve gives', async () => {
    const onStatic = new SchemaRegistryClient({ baseURLs: [host.url], maxRetries: 0 });
    const onServe = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
    for (const name of names()) {
      const latest = await onStatic.getLatestSchemaMetadata(name);
      expect(latest, name).toEqual(await onServe.getLatestSchemaMetadata(name));
      const versions = await onStatic.getAllVersions(name);
      expect(versions).toEqual(await onServe.getAllVersions(name));
      for (const version of versions) {
        const metadata = await onStatic.getSchemaMetadata(name, version, false);
        expect(metadata).toEqual(await onServe.getSchemaMetadata(name, version, false));
        expect(await onStatic.getBySubjectAndId(name, metadata.id!)).toEqual(
          await onServe.getBySubjectAndId(name, metadata.id!),
        );
      }
      expect(await onStatic.getCompatibility(name)).toBe(await onServe.getCompatibility(name));
    }
    expect(await onStatic.getDefaultCompatibility()).toBe(await onServe.getDefaultCompatibility());
  }, 60_000);

  it('its JSON serde writes with the latest schema on the export and reads on serve, and back', async () => {
    const onStatic = new SchemaRegistryClient({ baseURLs: [host.url], maxRetries: 0 });
    const onServe = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
    const config = { useLatestVersion: true, autoRegisterSchemas: false };
    for (const key of registry.state.subjects.keys()) {
      // TopicNameStrategy: the topic is the event key, the subject `<key>-value`.
      const payload = exampleFor(catalogue, eventOf(key), 'full');
      const bytes = await new JsonSerializer(onStatic, SerdeType.VALUE, config).serialize(key, payload);
      expect(bytes.readInt32BE(1)).toBe(registry.state.subjects.get(key)!.at(-1)!.id);
      expect(await new JsonDeserializer(onServe, SerdeType.VALUE, {}).deserialize(key, bytes)).toEqual(
        payload,
      );
      const back = await new JsonSerializer(onServe, SerdeType.VALUE, config).serialize(key, payload);
      expect(await new JsonDeserializer(onStatic, SerdeType.VALUE, {}).deserialize(key, back)).toEqual(
        payload,
      );
    }
  }, 60_000);
});
