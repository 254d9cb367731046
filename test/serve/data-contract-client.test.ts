import {
  CelExecutor,
  JsonSerializer,
  RuleRegistry,
  SchemaRegistryClient,
  SerdeType,
} from '@confluentinc/schemaregistry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHistory } from '../../generators/schema-registry/history.js';
import { schemaId } from '../../generators/schema-registry/registry.js';
import { releasedRules } from '../schema-registry/released-repo.js';
import { type RunningRegistry, startRegistry } from './serve-helpers.js';

/**
 * The rules fixture released twice (1.0.0; 1.1.0 adds a rule to `order.cancelled-v1`, its schema
 * unchanged), served by `eventry serve`, and Confluent's own client enforcing the served rules with its
 * CEL executor: what a producer gets from a registry that serves data contracts from git.
 */

let registry: RunningRegistry;
let client: SchemaRegistryClient;
const rules = new RuleRegistry();
beforeAll(async () => {
  const repo = releasedRules();
  const history = loadHistory({ cwd: repo.dir, env: process.env, catalogue: 'catalogue' });
  if (!history.ok) throw new Error(JSON.stringify(history));
  registry = await startRegistry(history.history);
  client = new SchemaRegistryClient({ baseURLs: [registry.url], maxRetries: 0 });
  rules.registerExecutor(new CelExecutor());
});
afterAll(() => registry?.close());

const get = async (path: string): Promise<Record<string, unknown>> =>
  (await (await fetch(`${registry.url}${path}`)).json()) as Record<string, unknown>;

const PLACED = 'order.placed-v1';

/** An order that keeps every rule of `order.placed-v1`, its own and its shapes'. */
const goodOrder = () => ({
  order_id: 'o-1',
  amount: 12.5,
  currency: 'EUR',
  placed_at: '2026-01-01T10:00:00Z',
  shipped_at: '2026-01-02T10:00:00Z',
  buyer: { name: 'Ann', email: 'ann@example.invalid' },
  lines: [{ sku: 'sku-1', qty: 2, price: 6.25, discount: 1 }],
});

describe('eventry serve answers each version with its data contract', () => {
  it('a version with rules carries ruleSet.domainRules and metadata, where Confluent puts them', async () => {
    const body = await get(`/subjects/${PLACED}/versions/1`);
    const domainRules = (body.ruleSet as { domainRules: Record<string, string>[] }).domainRules;
    expect(domainRules.map((rule) => rule.name)).toEqual([
      'amount_positive',
      'lines_present',
      'ships_after_placed',
      'priced_lines_need_amount',
      'lines_qty_positive',
      'lines_discount_below_price',
    ]);
    expect(domainRules[0]).toEqual({
      name: 'amount_positive',
      kind: 'CONDITION',
      mode: 'WRITE',
      type: 'CEL',
      expr: 'message.amount > 0',
      doc: 'The amount must be positive.',
    });
    expect(domainRules[4]!.expr).toContain('message.lines.all(');
    expect(body.metadata).toEqual({ tags: { '$.buyer.email': ['PII'] }, properties: { version: 'v1' } });
    // By id: the same contract beside the text.
    const byId = await get(`/schemas/ids/${body.id}`);
    expect(byId).toEqual({
      schema: body.schema,
      schemaType: 'JSON',
      ruleSet: body.ruleSet,
      metadata: body.metadata,
    });
    expect(await get(`/subjects/${PLACED}-value/versions/latest`)).toEqual({
      ...body,
      subject: `${PLACED}-value`,
    });
  });

  it('an event without rules answers as it always did, without ruleSet or metadata', async () => {
    const first = await get('/subjects/order.cancelled-v1/versions/1');
    expect(Object.keys(first)).toEqual(['subject', 'version', 'id', 'schemaType', 'schema']);
    expect(await get(`/schemas/ids/${first.id}`)).toEqual({ schema: first.schema, schemaType: 'JSON' });
    // Its id is the one the text alone always had.
    expect(first.id).toBe(schemaId(first.schema as string));
  });

  it('a rule added to an unchanged schema is a new version and a new id, as in Confluent', async () => {
    const versions = registry.state.subjects.get('order.cancelled-v1')!;
    expect(versions.map((version) => version.version)).toEqual([1, 2]);
    expect(versions[1]!.schema).toBe(versions[0]!.schema);
    expect(versions[1]!.id).not.toBe(versions[0]!.id);
    const second = await get('/subjects/order.cancelled-v1/versions/2');
    const rule = (second.ruleSet as { domainRules: { name: string }[] }).domainRules[0]!;
    expect(rule.name).toBe('order_id_named');
    expect(await get(`/schemas/ids/${second.id}`)).toEqual({
      schema: second.schema,
      schemaType: 'JSON',
      ruleSet: second.ruleSet,
      metadata: second.metadata,
    });
  });
});

describe('Confluent JsonSerializer with its CelExecutor against eventry serve', () => {
  const serializer = () =>
    new JsonSerializer(
      client,
      SerdeType.VALUE,
      { useLatestVersion: true, autoRegisterSchemas: false },
      rules,
    );

  it('accepts a payload that keeps every rule, under the served id', async () => {
    const bytes = await serializer().serialize(PLACED, goodOrder());
    expect(bytes.readInt32BE(1)).toBe(registry.state.subjects.get(PLACED)!.at(-1)!.id);
    expect(JSON.parse(bytes.subarray(5).toString())).toEqual(goodOrder());
  });

  it.each([
    ['amount_positive', { amount: -1 }, 'The amount must be positive.'],
    ['ships_after_placed', { shipped_at: '2025-12-31T00:00:00Z' }, 'An order ships after it is placed.'],
    ['lines_present', { lines: [] }, 'An order has at least one line.'],
    [
      'lines_qty_positive',
      {
        lines: [
          { sku: 'a', qty: 1, price: 1 },
          { sku: 'b', qty: 0, price: 1 },
        ],
      },
      'A line needs at least one item.',
    ],
    [
      'lines_discount_below_price',
      { lines: [{ sku: 'a', qty: 1, price: 1, discount: 2 }] },
      'A discount cannot exceed the price.',
    ],
  ])('refuses a payload that breaks %s, naming the rule', async (rule, change, message) => {
    const payload = { ...goodOrder(), ...change };
    await expect(serializer().serialize(PLACED, payload)).rejects.toThrow(`rule ${rule} failed: ${message}`);
  });

  it('finds the latest version by its metadata properties (useLatestWithMetadata)', async () => {
    const latest = registry.state.subjects.get(PLACED)!.at(-1)!;
    expect(await client.getLatestWithMetadata(PLACED, { version: 'v1' })).toMatchObject({
      id: latest.id,
      version: latest.version,
    });
    await expect(client.getLatestWithMetadata(PLACED, { version: 'v2' })).rejects.toMatchObject({
      status: 404,
      errorCode: 40403,
    });
    // Of order.cancelled-v1, only version 2 (its rule added) has metadata.
    await expect(
      client.getLatestWithMetadata('order.cancelled-v1', { version: 'v1' }),
    ).resolves.toMatchObject({ version: 2 });
    const withMetadata = new JsonSerializer(
      client,
      SerdeType.VALUE,
      { useLatestWithMetadata: { version: 'v1' }, autoRegisterSchemas: false },
      rules,
    );
    await expect(withMetadata.serialize(PLACED, { ...goodOrder(), lines: [] })).rejects.toThrow(
      'rule lines_present failed',
    );
  });

  it('useSchemaId writes under the id asked for, with the rules of that version or none', async () => {
    const [bare, ruled] = registry.state.subjects.get('order.cancelled-v1')!;
    const using = (id: number) =>
      new JsonSerializer(client, SerdeType.VALUE, { useSchemaId: id, autoRegisterSchemas: false }, rules);
    const unnamed = { order_id: '' };
    expect((await using(bare!.id).serialize('order.cancelled-v1', unnamed)).readInt32BE(1)).toBe(bare!.id);
    await expect(using(ruled!.id).serialize('order.cancelled-v1', unnamed)).rejects.toThrow(
      'rule order_id_named failed',
    );
  });

  it('enforces the rules of the schema looked up by id too (useSchemaId)', async () => {
    const id = registry.state.subjects.get(PLACED)!.at(-1)!.id;
    const byId = new JsonSerializer(
      client,
      SerdeType.VALUE,
      { useSchemaId: id, autoRegisterSchemas: false },
      rules,
    );
    await expect(byId.serialize(PLACED, { ...goodOrder(), amount: 0 })).rejects.toThrow(
      'rule amount_positive failed',
    );
  });
});
