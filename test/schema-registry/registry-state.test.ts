import { describe, expect, it } from 'vitest';
import type { History } from '../../generators/schema-registry/history.js';
import { SchemaRegistryState, schemaId } from '../../generators/schema-registry/registry.js';
import { seedHistory } from '../serve/serve-helpers.js';

const point = (label: string, schemas: [string, string][]) => ({
  label,
  version: label,
  schemas: new Map(schemas),
});

function history(
  points: ReturnType<typeof point>[],
  compatibility?: History['current']['config']['compatibility'],
): History {
  const current = seedHistory().current;
  return {
    points,
    current: { ...current, config: { ...current.config, ...(compatibility ? { compatibility } : {}) } },
    warnings: [],
  };
}

describe('SchemaRegistryState', () => {
  it('a version per change of schema along the history; a revert is a new version with the earlier id', () => {
    const state = new SchemaRegistryState(
      history([
        point('1.0.0', [
          ['a-v1', '{"v":1}'],
          ['b-v1', '{"b":1}'],
        ]),
        point('1.1.0', [
          ['a-v1', '{"v":2}'],
          ['b-v1', '{"b":1}'],
        ]),
        point('working', [
          ['a-v1', '{"v":1}'],
          ['b-v1', '{"b":1}'],
        ]),
      ]),
    );
    const a = state.subjects.get('a-v1')!;
    expect(a.map((v) => [v.version, v.schema])).toEqual([
      [1, '{"v":1}'],
      [2, '{"v":2}'],
      [3, '{"v":1}'],
    ]);
    expect(a[2]!.id).toBe(a[0]!.id);
    expect(a[0]!.id).toBe(schemaId('{"v":1}'));
    expect(state.subjects.get('b-v1')).toHaveLength(1);
    expect(state.schemas.get(a[0]!.id)!.uses.map((u) => u.version)).toEqual([1, 3]);
    expect(state.historyOrder().map((v) => `${v.subject}@${v.version}`)).toEqual([
      'a-v1@1',
      'b-v1@1',
      'a-v1@2',
      'a-v1@3',
    ]);
  });

  it('ids are positive 31-bit ints and the same for the same history', () => {
    const build = () => new SchemaRegistryState(seedHistory());
    const ids = [...build().schemas.keys()];
    expect(ids.every((id) => Number.isInteger(id) && id > 0 && id < 2 ** 31)).toBe(true);
    expect([...build().schemas.keys()]).toEqual(ids);
  });

  it('the compatibility level: an event override wins over its group, the group over the catalogue', () => {
    const schema = (group: string) => JSON.stringify({ 'x-group': group });
    const state = new SchemaRegistryState(
      history(
        [
          point('working', [
            ['a-v1', schema('billing')],
            ['b-v1', schema('billing')],
            ['c-v1', schema('account')],
          ]),
        ],
        { level: 'FORWARD', groups: { billing: 'FULL' }, events: { 'a-v1': 'NONE' } },
      ),
    );
    expect(['a-v1', 'b-v1', 'c-v1'].map((s) => state.levelOf(s))).toEqual(['NONE', 'FULL', 'FORWARD']);
    expect(state.resolveSubject('b-v1-value')).toBe('b-v1');
    expect(state.resolveSubject('zzz-value')).toBeUndefined();
  });
});
