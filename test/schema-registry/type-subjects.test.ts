import { describe, expect, it } from 'vitest';
import { migrationJsonata } from '../../generators/migrate/jsonata.js';
import type { History } from '../../generators/schema-registry/history.js';
import { SchemaRegistryState } from '../../generators/schema-registry/registry.js';
import { typeContracts } from '../../generators/schema-registry/type-contract.js';
import { FROM, migrationHistory, migrations, smallCatalogue, TO, TYPE } from './migration-history.js';

/**
 * Each event type is a subject of its own (issue 46): its versions are the type's event versions in
 * order, with `major_version` and the migration rules on the newer version, as the Confluent client
 * reads them; the event keys' subjects and their ids stay exactly as they were.
 */

/** The history without the type subjects' contracts: the registry as it was before them. */
function withoutTypeContracts(history: History): History {
  return { ...history, points: history.points.map(({ typeContracts: _, ...point }) => point) };
}

const perVersion = (state: SchemaRegistryState) =>
  [...state.subjects]
    .filter(([subject]) => !state.isTypeSubject(subject))
    .map(([subject, versions]) => [
      subject,
      versions.map((v) => [v.version, v.id, v.schema, v.contractText]),
    ]);

describe('type subjects', () => {
  const history = migrationHistory();
  const state = new SchemaRegistryState(history);

  it('leave every event key subject, its versions and ids, as they were', () => {
    const before = new SchemaRegistryState(withoutTypeContracts(history));
    expect([...before.subjects.keys()].some((subject) => before.isTypeSubject(subject))).toBe(false);
    expect(perVersion(state)).toEqual(perVersion(before));
    expect(state.historyOrder()).toEqual(before.historyOrder());
    for (const [id, entry] of before.schemas) expect(state.schemas.get(id)?.schema).toBe(entry.schema);
  });

  it('list the type versions in order, with major_version and the event key subjects’ texts', () => {
    const versions = state.subjects.get(TYPE)!;
    expect(versions.map((v) => [v.version, v.eventKey])).toEqual([
      [1, FROM],
      [2, TO],
    ]);
    for (const version of versions) {
      expect(version.schema).toBe(state.subjects.get(version.eventKey!)!.at(-1)!.schema);
    }
    expect(versions.map((v) => v.contract?.metadata.properties.major_version)).toEqual(['1', '2']);
    expect(state.subjects.get('account.created')!.map((v) => v.eventKey)).toEqual(['account.created-v1']);
    // Without rules or migrations, no ruleSet at all (metadata still).
    expect(state.subjects.get('account.created')![0]!.contract).not.toHaveProperty('ruleSet');
    // A semver version's major number.
    const sale = state.subjects.get('lifecycle.support-site.sale')!;
    expect(sale[0]!.contract?.metadata.properties).toMatchObject({ version: '1.0.0', major_version: '1' });
    expect(state.isTypeSubject(TYPE)).toBe(true);
    expect(state.isTypeSubject(TO)).toBe(false);
  });

  it('put both migration rules of a pair on the newer version, compiled from the steps', () => {
    const [v1, v2] = state.subjects.get(TYPE)!;
    expect(v1!.contract?.ruleSet?.migrationRules).toBeUndefined();
    const { upgrade, downgrade } = migrations();
    expect(v2!.contract?.ruleSet?.migrationRules).toEqual([
      {
        name: 'upgrade_v1_to_v2',
        kind: 'TRANSFORM',
        mode: 'UPGRADE',
        type: 'JSONATA',
        expr: migrationJsonata(smallCatalogue(), upgrade),
      },
      {
        name: 'downgrade_v2_to_v1',
        kind: 'TRANSFORM',
        mode: 'DOWNGRADE',
        type: 'JSONATA',
        expr: migrationJsonata(smallCatalogue(), downgrade),
      },
    ]);
  });

  it('give ids of their own, the same on every load, and keep an earlier text’s id resolving', () => {
    const again = new SchemaRegistryState(migrationHistory());
    const ids = (s: SchemaRegistryState) => s.subjects.get(TYPE)!.map((v) => v.id);
    expect(ids(again)).toEqual(ids(state));
    const eventIds = new Set(
      perVersion(state).flatMap(([, versions]) => (versions as number[][]).map((v) => v[1])),
    );
    for (const id of ids(state)) expect(eventIds.has(id)).toBe(false);
    // The release had v2 without migration rules: that text keeps its id, listed in no subject.
    const released = new SchemaRegistryState(migrationHistory(false)).schemas;
    const current = new Set(ids(state));
    const retired = [...state.schemas.values()].filter(
      (entry) =>
        entry.retired &&
        entry.contract?.metadata.properties.major_version === '2' &&
        entry.schema === state.subjects.get(TO)!.at(-1)!.schema,
    );
    expect(retired).toHaveLength(1);
    expect(current.has(retired[0]!.id)).toBe(false);
    expect(released.has(retired[0]!.id)).toBe(false);
  });
});

describe('a migration the client cannot run as written is left out, with a warning', () => {
  it('an upgrade from a version before the one just before', () => {
    const catalogue = smallCatalogue();
    const v2 = catalogue.events[TO]!;
    const v3 = 'account.removed-v3';
    catalogue.events[v3] = { ...v2, key: v3, version: 'v3', upgrade: { ...migrations().upgrade, to: v3 } };
    delete catalogue.events[v3]!.downgrade;
    const { contracts, warnings } = typeContracts(catalogue);
    expect(contracts.get(v3)!.ruleSet?.migrationRules).toBeUndefined();
    expect(contracts.get(TO)!.ruleSet?.migrationRules).toHaveLength(2);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^account\.removed-v3: its upgrade from account\.removed-v1 .*neighbouring versions \(account\.removed-v2 comes before it\)/,
      ),
    ]);
  });

  it('a cel value JSONata cannot express (the loader refuses it first)', () => {
    const catalogue = smallCatalogue();
    const upgrade = migrations().upgrade;
    upgrade.steps = [
      { kind: 'set', field: ['reason'], cel: 'size(message.account_number) / 2', source: upgrade.source },
    ];
    catalogue.events[TO]!.upgrade = upgrade;
    const { contracts, warnings } = typeContracts(catalogue);
    expect(contracts.get(TO)!.ruleSet?.migrationRules?.map((rule) => rule.mode)).toEqual(['DOWNGRADE']);
    expect(warnings).toEqual([
      expect.stringMatching(/^account\.removed-v2: its upgrade is not served .*int division/),
    ]);
  });
});

describe('a type whose name an event key subject answers to gets no type subject', () => {
  it('neither `<key>` nor `<key>-value`, nor another type’s `-value`', () => {
    // Types `order`, `order-v1` (its key `order-v1-v1` beside `order-v1`) and `order-v1-value`, `order-value`.
    const keys = ['order-v1', 'order-v1-v1', 'order-v1-value-v1', 'order-value-v1', 'refund-v1'];
    const text = (key: string) => JSON.stringify({ 'x-event-key': key });
    const contract = JSON.stringify({ metadata: { properties: { major_version: '1' } } });
    const point = {
      label: 'working catalogue',
      version: '1.0.0',
      schemas: new Map(keys.map((key) => [key, text(key)])),
      typeContracts: new Map(keys.map((key) => [key, contract])),
    };
    const current = { config: { title: 't', version: '1.0.0', scope: '@t' } } as History['current'];
    const state = new SchemaRegistryState({ points: [point], current, warnings: [] });
    const types = [...state.subjects.keys()].filter((subject) => state.isTypeSubject(subject)).sort();
    expect(types).toEqual(['order', 'refund']);
    expect(state.resolveSubject('order-v1-value')).toBe('order-v1');
    expect(state.resolveSubject('order-value')).toBe('order');
  });
});
