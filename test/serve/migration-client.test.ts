import {
  CelExecutor,
  JsonataExecutor,
  JsonDeserializer,
  JsonSerializer,
  RuleRegistry,
  SchemaRegistryClient,
  SerdeType,
} from '@confluentinc/schemaregistry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FROM, migrationHistory, TO, TYPE, V3 } from '../schema-registry/migration-history.js';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

/**
 * Confluent's own client reading one topic of two event versions through `eventry serve` (issue 46):
 * a message written with `account.removed-v1`'s schema id, read by a `JsonDeserializer` with the
 * `JsonataExecutor` registered and `useLatestVersion` on the topic's subject (`account.removed-value`),
 * comes out as the v2 payload the upgrade's steps give; with `useLatestWithMetadata` on major version 1,
 * a v2 message comes out as v1 through the downgrade. The migration is the small fixture's
 * (test/schema-registry/migration-history.ts): set `reason` from CEL, set `changes`, move `score` into it;
 * v1 has a rule, so its own subject's contract is not its type version's.
 */

let registry: RunningRegistry;
let client: SchemaRegistryClient;
const rules = new RuleRegistry();
beforeAll(async () => {
  registry = await startRegistry(migrationHistory());
  client = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
  rules.registerExecutor(new JsonataExecutor());
  rules.registerExecutor(new CelExecutor()); // account.removed-v1's rule, on write
});
afterAll(() => registry?.close());

const get = async (path: string): Promise<Record<string, unknown>> =>
  (await (await fetch(`${registry.url}${path}`)).json()) as Record<string, unknown>;

const v1 = {
  account_number: 'A-1234',
  account_user_emails: ['ann@example.invalid'],
  score: 2.5,
  status: 'active',
};
const v2 = {
  account_number: 'A-1234',
  account_user_emails: ['ann@example.invalid'],
  status: 'active',
  reason: 'migrated from A-1234',
  changes: { migrated: true, score: 2.5 },
};

/** A producer as they are today: the event key's own subject, its latest version's id. */
const eventKeyProducer = (key: string) =>
  new JsonSerializer(
    client,
    SerdeType.VALUE,
    { useLatestVersion: true, autoRegisterSchemas: false, subjectNameStrategy: () => key },
    rules,
  );

const reader = (config: Record<string, unknown>) =>
  new JsonDeserializer(client, SerdeType.VALUE, config, rules);

describe('eventry serve: the type subject as Confluent reads it', () => {
  it('answers the type under both names, its config in major-version groups', async () => {
    expect(await get(`/subjects/${TYPE}-value/versions`)).toEqual([1, 2]);
    const latest = await get(`/subjects/${TYPE}-value/versions/latest`);
    expect(latest).toMatchObject({ subject: `${TYPE}-value`, version: 2 });
    expect((latest.metadata as { properties: Record<string, string> }).properties.major_version).toBe('2');
    const rulesOf = (latest.ruleSet as { migrationRules: { mode: string; type: string }[] }).migrationRules;
    expect(rulesOf.map((rule) => [rule.mode, rule.type])).toEqual([
      ['UPGRADE', 'JSONATA'],
      ['DOWNGRADE', 'JSONATA'],
    ]);
    expect(await get(`/config/${TYPE}`)).toMatchObject({ compatibilityGroup: 'major_version' });
    expect(await get(`/config/${TO}`)).not.toHaveProperty('compatibilityGroup');
    // By id, the type version carries its rules too (the client reads the writer's by id).
    expect(await get(`/schemas/ids/${latest.id}`)).toMatchObject({ ruleSet: latest.ruleSet });
  });

  it('upgrades a message written with v1’s own id to the v2 payload the steps give', async () => {
    const bytes = await eventKeyProducer(FROM).serialize(TYPE, v1);
    expect(bytes.readInt32BE(1)).toBe(registry.state.subjects.get(FROM)!.at(-1)!.id);
    const read = await reader({ useLatestVersion: true }).deserialize(TYPE, bytes);
    expect(read).toEqual(v2);
  });

  it('upgrades a message written through the type subject at major version 1', async () => {
    const writer = new JsonSerializer(
      client,
      SerdeType.VALUE,
      { useLatestWithMetadata: { major_version: '1' }, autoRegisterSchemas: false },
      rules,
    );
    const bytes = await writer.serialize(TYPE, v1);
    expect(bytes.readInt32BE(1)).toBe(registry.state.subjects.get(TYPE)![0]!.id);
    expect(await reader({ useLatestVersion: true }).deserialize(TYPE, bytes)).toEqual(v2);
  });

  it('downgrades a v2 message for a reader pinned to major version 1', async () => {
    const writer = new JsonSerializer(
      client,
      SerdeType.VALUE,
      { useLatestVersion: true, autoRegisterSchemas: false },
      rules,
    );
    const bytes = await writer.serialize(TYPE, v2);
    const read = await reader({ useLatestWithMetadata: { major_version: '1' } }).deserialize(TYPE, bytes);
    const { reason: _r, changes: _c, ...expected } = v2;
    expect(read).toEqual(expected);
  });

  it('reads a v2 message as it is for a reader of the latest version', async () => {
    const bytes = await eventKeyProducer(TO).serialize(TYPE, v2);
    expect(await reader({ useLatestVersion: true }).deserialize(TYPE, bytes)).toEqual(v2);
  });
});

describe('eventry serve: compatibility within a major version of a type subject', () => {
  const check = async (schema: string, metadata?: Record<string, unknown>) => {
    const response = await fetch(`${registry.url}/compatibility/subjects/${TYPE}-value/versions/latest`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
      body: JSON.stringify({ schemaType: 'JSON', schema, ...(metadata ? { metadata } : {}) }),
    });
    return ((await response.json()) as { is_compatible: boolean }).is_compatible;
  };
  const v1Text = () => registry.state.subjects.get(FROM)!.at(-1)!.schema;

  it('judges a candidate of major version 1 against version 1, not the latest (version 2)', async () => {
    expect(await check(v1Text(), { properties: { major_version: '1' } })).toBe(true);
    // Without a major version named, against the latest, as for any subject: v1 cannot read v2's fields.
    expect(await check(v1Text())).toBe(false);
  });

  it('finds a new major version compatible: nothing to judge it against', async () => {
    expect(await check(v1Text(), { properties: { major_version: '3' } })).toBe(true);
  });
});

describe('eventry serve: a chain of migrations, walked by the client version by version', () => {
  let chain: RunningRegistry;
  let chainClient: SchemaRegistryClient;
  beforeAll(async () => {
    chain = await startRegistry(migrationHistory(true, true));
    chainClient = new SchemaRegistryClient({ baseURLs: [chain.url], maxRetries: 0 });
  });
  afterAll(() => chain?.close());

  it('upgrades v1 to v3 through v2, and downgrades v3 to v1 through v2', async () => {
    expect(chain.state.subjects.get(TYPE)!.map((version) => version.eventKey)).toEqual([FROM, TO, V3]);
    const v1Writer = new JsonSerializer(
      chainClient,
      SerdeType.VALUE,
      { useLatestVersion: true, autoRegisterSchemas: false, subjectNameStrategy: () => FROM },
      rules,
    );
    const latest = new JsonDeserializer(chainClient, SerdeType.VALUE, { useLatestVersion: true }, rules);
    const v3 = { ...v2, reason: 'MIGRATED FROM A-1234' };
    expect(await latest.deserialize(TYPE, await v1Writer.serialize(TYPE, v1))).toEqual(v3);
    const typeWriter = new JsonSerializer(
      chainClient,
      SerdeType.VALUE,
      { useLatestVersion: true, autoRegisterSchemas: false },
      rules,
    );
    const pinned = new JsonDeserializer(
      chainClient,
      SerdeType.VALUE,
      { useLatestWithMetadata: { major_version: '1' } },
      rules,
    );
    const written = await typeWriter.serialize(TYPE, v3);
    const { reason: _r, changes: _c, ...expected } = v3;
    expect(await pinned.deserialize(TYPE, written)).toEqual(expected);
    // At major version 2, v3's own downgrade alone (its reason lower-cased).
    const atTwo = new JsonDeserializer(
      chainClient,
      SerdeType.VALUE,
      { useLatestWithMetadata: { major_version: '2' } },
      rules,
    );
    expect(await atTwo.deserialize(TYPE, written)).toEqual({ ...v3, reason: 'migrated from a-1234' });
  });
});
