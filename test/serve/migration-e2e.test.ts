import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  JsonataExecutor,
  JsonDeserializer,
  JsonSerializer,
  RuleRegistry,
  SchemaRegistryClient,
  SerdeType,
} from '@confluentinc/schemaregistry';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { buildPackages } from '../emit/package/build-packages.js';
import { fixturePath, REPO } from '../helpers.js';
import { makeRepo, type TestRepo } from '../sources/git-repo.js';
import { type ServeProcess, spawnServe } from './replica-helpers.js';

/**
 * Issue 46's "Done when", end to end: a migration written once in YAML (the migrations fixture) runs
 * the same in the group package and in Confluent's client through `eventry serve`. The fixture is
 * released in a git repository and served by the compiled CLI; its packages are built by the real
 * build. For payloads of each old version from the package's own `testing.arbitrary` (fixed seed),
 * a `JsonDeserializer` with the `JsonataExecutor`, reading the topic named after the type with
 * `useLatestVersion`, gives exactly what the package's `upcast` gives; with `useLatestWithMetadata`
 * on major version 1, exactly what its `downcast` gives.
 */

const RUNS = 20;
const SEED = 46;

interface GroupModule {
  upcast(from: string, payload: unknown, to?: string): unknown;
  downcast(from: string, payload: unknown, to: string): unknown;
  validate(key: string, payload: unknown): { valid: boolean };
}
interface TestingModule {
  arbitrary(key: string, options?: { fc?: unknown }): fc.Arbitrary<unknown>;
}
interface Group {
  api: GroupModule;
  testing: TestingModule;
}

/**
 * The fixture released as a team would: 1.0.0 with the v1 of each type only, then 1.1.0 with the
 * later versions and their migrations (the fixture as it is). v1 messages on the topic were written
 * with 1.0.0's ids.
 */
function releasedWithMigrations(): TestRepo {
  const repo = makeRepo();
  repo.copy(fixturePath('migrations'), 'catalogue');
  for (const group of ['billing', 'agreements']) {
    const file = `catalogue/groups/${group}.yaml`;
    const document = parseDocument(readFileSync(join(repo.dir, file), 'utf8'));
    const events = document.get('events') as { items: { key: { value: string } }[] };
    events.items = events.items.filter((item) => item.key.value.endsWith('-v1'));
    repo.write(file, document.toString());
  }
  repo.commit('release 1.0.0');
  repo.copy(fixturePath('migrations'), 'catalogue');
  const config = 'catalogue/eventry.config.yaml';
  repo.write(config, readFileSync(join(repo.dir, config), 'utf8').replace('1.0.0', '1.1.0'));
  repo.commit('release 1.1.0');
  return repo;
}

let served: ServeProcess;
let client: SchemaRegistryClient;
const groups = new Map<string, Group>();
const rules = new RuleRegistry();
beforeAll(async () => {
  const repo = releasedWithMigrations();
  served = await spawnServe(repo.dir, ['--poll', '0', '--no-cache']);
  client = new SchemaRegistryClient({ baseURLs: [served.url], maxRetries: 0 });
  rules.registerExecutor(new JsonataExecutor());
  const built = await buildPackages(join(repo.dir, 'catalogue'));
  // The consumer project has fast-check, as one that property-tests would.
  symlinkSync(
    join(REPO, 'node_modules', 'fast-check'),
    join(built.root, 'node_modules', 'fast-check'),
    'dir',
  );
  for (const slug of ['billing', 'agreements']) {
    const testing = (await import(pathToFileURL(join(built.out, slug, 'testing.js')).href)) as TestingModule;
    groups.set(slug, { api: (await built.importGroup(slug)) as unknown as GroupModule, testing });
  }
}, 120_000);
afterAll(async () => {
  if (!served) return;
  served.child.kill('SIGTERM');
  await served.exited;
});

const get = async (path: string): Promise<Record<string, unknown>> =>
  (await (await fetch(`${served.url}${path}`)).json()) as Record<string, unknown>;

/** The package's own property payloads of `key`: `RUNS` of them, the same on every run. */
const payloadsOf = (slug: string, key: string): unknown[] =>
  fc.sample(groups.get(slug)!.testing.arbitrary(key, { fc }), { numRuns: RUNS, seed: SEED });

/** A producer that has not moved: the event key's own subject, its served (latest) id. */
const keyWriter = (key: string) =>
  new JsonSerializer(
    client,
    SerdeType.VALUE,
    { useLatestVersion: true, autoRegisterSchemas: false, subjectNameStrategy: () => key },
    rules,
  );

/**
 * The client's payload as plain data: the objects it gives after a migration have no prototype
 * (`Object.create(null)`), which a deep equal would count; every value, `undefined` included, is kept.
 */
const plain = (value: unknown): unknown => structuredClone(value);

const reader = (config: Record<string, unknown>) =>
  new JsonDeserializer(client, SerdeType.VALUE, config, rules);

describe('a released catalogue with migrations, served by the compiled `eventry serve`', () => {
  it('serves each multi-version type as a subject of its versions, with JSONata migration rules', async () => {
    expect(await get('/subjects/billing.billing_document_representation.dispatched-value/versions')).toEqual([
      1, 2, 3,
    ]);
    const agreement = await get('/subjects/agreement.updated-value/versions/latest');
    const modes = (agreement.ruleSet as { migrationRules: { mode: string; type: string }[] }).migrationRules;
    expect(modes.map((rule) => [rule.mode, rule.type])).toEqual([
      ['UPGRADE', 'JSONATA'],
      ['DOWNGRADE', 'JSONATA'],
    ]);
    expect(served.stderr(), 'both releases load').toBe('');
    // Each v1 has the one version it was released with at 1.0.0: the id old messages carry.
    for (const key of ['billing.ledger.entry_removed-v1', 'agreement.updated-v1'])
      expect(await get(`/subjects/${key}/versions`)).toEqual([1]);
    expect(await get('/config/billing.ledger.entry_removed')).toMatchObject({
      compatibilityGroup: 'major_version',
    });
  });
});

describe('the Confluent client through `eventry serve` gives what the package’s upcast gives', () => {
  const cases = [
    { slug: 'billing', type: 'billing.ledger.entry_removed', steps: 1 },
    { slug: 'billing', type: 'billing.billing_document_representation.dispatched', steps: 2 },
    { slug: 'agreements', type: 'agreement.updated', steps: 1 },
  ];
  for (const { slug, type, steps } of cases) {
    it(`${type}: ${RUNS} v1 payloads, written with v1’s id, read at the latest version (${steps} step(s))`, async () => {
      const from = `${type}-v1`;
      const v1Id = (await get(`/subjects/${from}/versions/latest`)).id;
      const writer = keyWriter(from);
      const latest = reader({ useLatestVersion: true });
      const { api } = groups.get(slug)!;
      const payloads = payloadsOf(slug, from);
      expect(payloads).toHaveLength(RUNS);
      for (const [index, payload] of payloads.entries()) {
        const bytes = await writer.serialize(type, payload);
        expect(bytes.readInt32BE(1)).toBe(v1Id);
        const read = plain(await latest.deserialize(type, bytes));
        const expected = api.upcast(from, payload);
        expect(read, `payload ${index}: ${JSON.stringify(payload)}`).toStrictEqual(expected);
        expect(api.validate(`${type}-v${steps + 1}`, read), `payload ${index}`).toEqual({ valid: true });
        // The migration did something: the newest version is not the v1 payload.
        expect(read).not.toStrictEqual(payload);
      }
    });
  }
});

describe('a reader pinned to a major version on the way', () => {
  it(`dispatched: ${RUNS} v1 payloads read at major version 2 are upcast(v1, payload, v2)`, async () => {
    const type = 'billing.billing_document_representation.dispatched';
    const writer = keyWriter(`${type}-v1`);
    const atTwo = reader({ useLatestWithMetadata: { major_version: '2' } });
    const { api } = groups.get('billing')!;
    for (const [index, payload] of payloadsOf('billing', `${type}-v1`).entries()) {
      const read = plain(await atTwo.deserialize(type, await writer.serialize(type, payload)));
      const expected = api.upcast(`${type}-v1`, payload, `${type}-v2`);
      expect(read, `payload ${index}: ${JSON.stringify(payload)}`).toStrictEqual(expected);
      expect(read).not.toHaveProperty('support_user_id');
    }
  });
});

describe('the Confluent client through `eventry serve` gives what the package’s downcast gives', () => {
  it(`agreement.updated: ${RUNS} v2 payloads, read by a reader pinned to major version 1`, async () => {
    const type = 'agreement.updated';
    const writer = new JsonSerializer(
      client,
      SerdeType.VALUE,
      { useLatestVersion: true, autoRegisterSchemas: false },
      rules,
    );
    const pinned = reader({ useLatestWithMetadata: { major_version: '1' } });
    const { api } = groups.get('agreements')!;
    for (const [index, payload] of payloadsOf('agreements', `${type}-v2`).entries()) {
      const read = plain(await pinned.deserialize(type, await writer.serialize(type, payload)));
      const expected = api.downcast(`${type}-v2`, payload, `${type}-v1`);
      expect(read, `payload ${index}: ${JSON.stringify(payload)}`).toStrictEqual(expected);
      expect(api.validate(`${type}-v1`, read), `payload ${index}`).toEqual({ valid: true });
    }
  });
});
