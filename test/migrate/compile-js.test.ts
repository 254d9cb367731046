import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { migrationCode, migrationFunction, migrationsCode } from '../../generators/migrate/compile-js.js';
import type { Catalogue, JsonValue, Migration, MigrationStep } from '../../generators/model.js';
import { loadValid, REPO } from '../helpers.js';

const model: Catalogue = loadValid(`${REPO}/catalogue`);
const at = { file: 'groups/billing.yaml', line: 1, column: 1 };
const V1 = 'billing.ledger.entry_removed-v1';
const V2 = 'billing.ledger.entry_removed-v2';

function migration(steps: MigrationStep[]): Migration {
  return { from: V1, to: V2, steps, source: at };
}

const set = (field: string, value: JsonValue): MigrationStep => ({
  kind: 'set',
  field: field.split('.'),
  value,
  source: at,
});
const setCel = (field: string, cel: string): MigrationStep => ({
  kind: 'set',
  field: field.split('.'),
  cel,
  source: at,
});
const rename = (from: string, to: string): MigrationStep => ({
  kind: 'rename',
  from: from.split('.'),
  to: to.split('.'),
  source: at,
});
const drop = (...fields: string[]): MigrationStep => ({
  kind: 'drop',
  fields: fields.map((field) => field.split('.')),
  source: at,
});

const V1_PAYLOAD = { ledger: { account: { number: 'A-1' }, number: 'L-9', id: 'led_1' } };

/** Deep-freezes a value, so that a migration writing into its input throws. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) frozen(item);
    Object.freeze(value);
  }
  return value;
}

describe('migrations compiled to JavaScript', () => {
  it('applies set, set cel, rename and drop in order, over a copy, with CEL reading the input payload', () => {
    const upgrade = migrationFunction(
      model,
      migration([
        set('entry', { id: 0, amount: 0, is_charge: false }),
        setCel('entry.source_reason', "'migrated ' + message.ledger.number"),
        rename('ledger.id', 'ledger.ledger_id'),
        setCel('entry.id', 'has(message.ledger.id) ? size(message.ledger.id) : 0'),
        drop('ledger.account.number', 'not_there.at_all'),
      ]),
    );
    const input = frozen(structuredClone(V1_PAYLOAD));
    expect(upgrade(input)).toEqual({
      ledger: { account: {}, number: 'L-9', ledger_id: 'led_1' },
      entry: { id: 5, amount: 0, is_charge: false, source_reason: 'migrated L-9' },
    });
    expect(input).toEqual(V1_PAYLOAD);
  });

  it('reads the input as it was before any step: a renamed field is still there for CEL', () => {
    const upgrade = migrationFunction(
      model,
      migration([
        rename('ledger.number', 'entry.source_reason'),
        setCel('entry.id', 'size(message.ledger.number)'),
      ]),
    );
    expect(upgrade(V1_PAYLOAD)).toEqual({
      ledger: { account: { number: 'A-1' }, id: 'led_1' },
      entry: { source_reason: 'L-9', id: 3 },
    });
  });

  it('leaves an absent field absent on rename and drop, and creates missing parents on set', () => {
    const upgrade = migrationFunction(
      model,
      migration([rename('ledger.id', 'x.y'), drop('ledger.id'), set('a.b.c', 1)]),
    );
    const input = { ledger: { account: { number: 'A' }, number: 'L' } };
    expect(upgrade(input)).toEqual({ ledger: { account: { number: 'A' }, number: 'L' }, a: { b: { c: 1 } } });
  });

  it('never shares a value between results or with the input', () => {
    const upgrade = migrationFunction(
      model,
      migration([set('entry', { id: 1 }), setCel('copy', 'message.ledger')]),
    );
    const first = upgrade(V1_PAYLOAD) as { entry: { id: number }; copy: { number: string } };
    const second = upgrade(V1_PAYLOAD) as { entry: { id: number } };
    first.entry.id = 99;
    first.copy.number = 'changed';
    expect(second.entry.id).toBe(1);
    expect(V1_PAYLOAD.ledger.number).toBe('L-9');
  });

  it('keeps a __proto__ key as data, never as a prototype', () => {
    const upgrade = migrationFunction(
      model,
      migration([set('entry', JSON.parse('{"__proto__": {"polluted": 1}}'))]),
    );
    const result = upgrade(JSON.parse('{"__proto__": {"x": 1}, "ledger": {}}')) as Record<string, unknown>;
    expect(Object.keys(result).sort()).toEqual(['__proto__', 'entry', 'ledger']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result.entry)).toBe(Object.prototype);
  });

  it('gives CEL ints as JSON numbers and throws on a CEL evaluation error', () => {
    const upgrade = migrationFunction(
      model,
      migration([setCel('n', '9223372036854775807 + size(message.ledger.number)')]),
    );
    expect(() => upgrade(V1_PAYLOAD)).toThrow(/overflow/);
    const sized = migrationFunction(model, migration([setCel('n', 'size(message.ledger.number) * 2')]));
    expect((sized(V1_PAYLOAD) as { n: unknown }).n).toBe(6);
  });

  it('throws, as CEL does, when the input lacks a field its expression reads', () => {
    const upgrade = migrationFunction(
      model,
      migration([setCel('entry.source_reason', "'closed by ' + message.ledger.number")]),
    );
    expect(() => upgrade({ ledger: { account: {} } })).toThrow(/no such key: number/);
    expect(() => upgrade({})).toThrow(/no such key: ledger/);
  });

  it('declares the helpers once for a module of several migrations', () => {
    const steps = [setCel('a', "message.ledger.number.startsWith('L') ? 'l' : 'x'")];
    const { declarations, bodies } = migrationsCode(model, [migration(steps), migration(steps)]);
    expect(bodies).toHaveLength(2);
    expect(declarations.match(/function migSet\(/g)).toHaveLength(1);
    const one = migrationCode(model, migration(steps));
    expect(new Function(`${one.declarations}\nreturn ${one.body};`)()(V1_PAYLOAD)).toMatchObject({ a: 'l' });
  });
});

/** The contract's semantics written plainly, as a second reading of decision 0160. */
function reference(steps: MigrationStep[], input: Record<string, unknown>): Record<string, unknown> {
  const next = structuredClone(input);
  const parent = (path: string[], create: boolean) => {
    let node: Record<string, unknown> | undefined = next;
    for (const key of path.slice(0, -1)) {
      const child: unknown = node?.[key];
      if (child && typeof child === 'object' && !Array.isArray(child))
        node = child as Record<string, unknown>;
      else if (create && node) node = node[key] = {};
      else return undefined;
    }
    return node;
  };
  for (const step of steps) {
    if (step.kind === 'set' && 'value' in step)
      // A constant is JSON: what JSON.stringify writes (-0 is 0).
      parent(step.field, true)![step.field.at(-1)!] = JSON.parse(JSON.stringify(step.value));
    if (step.kind === 'rename') {
      const from = parent(step.from, false);
      if (from && step.from.at(-1)! in from) {
        const value = from[step.from.at(-1)!];
        delete from[step.from.at(-1)!];
        parent(step.to, true)![step.to.at(-1)!] = value;
      }
    }
    if (step.kind === 'drop') for (const path of step.fields) delete parent(path, false)?.[path.at(-1)!];
  }
  return next;
}

describe('migrations compiled to JavaScript, against a plain reading of the semantics', () => {
  const key = fc.constantFrom('a', 'b', 'c');
  const path = fc.array(key, { minLength: 1, maxLength: 3 });
  const json = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>;
  const step: fc.Arbitrary<MigrationStep> = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), field: path, value: json, source: fc.constant(at) }),
    fc.record({ kind: fc.constant('rename' as const), from: path, to: path, source: fc.constant(at) }),
    fc.record({
      kind: fc.constant('drop' as const),
      fields: fc.array(path, { maxLength: 2 }),
      source: fc.constant(at),
    }),
  );
  const payload = fc.dictionary(
    key,
    fc.oneof(json, fc.dictionary(key, fc.oneof(json, fc.dictionary(key, json)))),
  );

  it('gives what the reference gives on 500 random step lists and payloads', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 5 }), payload, (steps, input) => {
        const ours = migrationFunction(model, migration(steps))(frozen(structuredClone(input)));
        expect(ours).toEqual(reference(steps, input));
      }),
      { seed: 46, numRuns: 500 },
    );
  });
});
