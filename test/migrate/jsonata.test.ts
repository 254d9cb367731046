import { type CelInput, celEnv, isCelError, isCelList, parse, plan } from '@bufbuild/cel';
import { STRINGS_EXT_FUNCS } from '@bufbuild/cel/ext/strings';
import * as fc from 'fast-check';
import jsonata from 'jsonata';
import { describe, expect, it } from 'vitest';
import { checkExpression } from '../../generators/cel/check.js';
import { migrationFunction } from '../../generators/migrate/compile-js.js';
import { jsonataSupport, MigrationJsonataError, migrationJsonata } from '../../generators/migrate/jsonata.js';
import type { Catalogue, JsonValue, Migration, MigrationStep } from '../../generators/model.js';
import { payloadOf } from '../cel/payloads.js';
import { fixturePath, loadValid } from '../helpers.js';

/**
 * A migration's JSONata (what the registry serves as a Confluent `JSONATA` migration rule) gives, run
 * by the `jsonata` library, the payload the contract's semantics give (issue 46): a plain reference of
 * them here, with `@bufbuild/cel` (the Confluent client's evaluator) for `cel` values.
 */
const SEED = 4646;
const source = { file: 'test', line: 1, column: 1 };
const MODEL: Catalogue = loadValid(fixturePath('small'));
const FROM = 'account.removed-v1';
const TO = 'account.removed-v2';
const ENV = celEnv({ funcs: STRINGS_EXT_FUNCS });

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The contract's semantics, plainly: steps in order on a copy, `cel` over the payload before any step. */
function reference(payload: Json, steps: readonly MigrationStep[]): Json {
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T; // own `__proto__` keys kept
  const put = (target: Json, key: string, value: unknown) =>
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  const message = copy(payload);
  const next = copy(payload);
  const parentOf = (path: readonly string[], create: boolean): Json | undefined => {
    let at: Json | undefined = next;
    for (const name of path.slice(0, -1)) {
      const child: unknown = at && Object.hasOwn(at, name) ? at[name] : undefined;
      if (isObject(child)) at = child;
      else if (!create) return undefined;
      else at = put(at!, name, {})[name] as Json;
    }
    return at;
  };
  const set = (path: readonly string[], value: unknown) => {
    put(parentOf(path, true)!, path.at(-1)!, copy(value));
  };
  const present = (path: readonly string[]) => {
    const parent = parentOf(path, false);
    return parent !== undefined && Object.hasOwn(parent, path.at(-1)!);
  };
  for (const step of steps) {
    if (step.kind === 'set') set(step.field, 'cel' in step ? celValue(step.cel, message) : step.value);
    else if (step.kind === 'rename') {
      if (!present(step.from)) continue;
      const parent = parentOf(step.from, false)!;
      const value = parent[step.from.at(-1)!];
      delete parent[step.from.at(-1)!];
      set(step.to, value);
    } else for (const field of step.fields) if (present(field)) delete parentOf(field, false)![field.at(-1)!];
  }
  return copy(next); // as it travels: -0 is 0
}

/** A CEL value as JSON: ints as numbers, lists as arrays (what the contract says a `set` stores). */
function celValue(expr: string, message: Json): unknown {
  const result = plan(ENV, parse(expr))({ message: message as CelInput });
  if (isCelError(result)) throw new Error(`CEL error: ${String(result)}`);
  const toJson = (value: unknown): unknown => {
    if (typeof value === 'bigint') return Number(value);
    if (isCelList(value as never)) return [...(value as Iterable<unknown>)].map(toJson);
    return value;
  };
  return toJson(result);
}

async function viaJsonata(expression: string, payload: Json): Promise<unknown> {
  const before = JSON.stringify(payload);
  const result = await jsonata(expression).evaluate(payload);
  expect(JSON.stringify(payload)).toBe(before); // the input is never changed
  return JSON.parse(JSON.stringify(result));
}

/** The packages' upcaster (generators/migrate/compile-js.ts) on the same steps, as the payload travels. */
function viaJavaScript(steps: MigrationStep[], payload: Json): unknown {
  return JSON.parse(JSON.stringify(migrationFunction(MODEL, migration(steps))(payload)));
}

const migration = (steps: MigrationStep[]): Migration => ({ from: FROM, to: TO, steps, source });

// Names that JSONata would read otherwise in a path (a dot, a space, `$`, none), and plain ones.
const name = fc.constantFrom('a', 'b', 'c', 'a.b', 'x y', '$', '', 'items', 'constructor', '__proto__');
const path = fc.array(name, { minLength: 1, maxLength: 3 });
const leaf = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as JsonValue);
const { tree } = fc.letrec((tie) => ({
  tree: fc.dictionary(
    name,
    fc.oneof(
      { weight: 3, arbitrary: leaf },
      { weight: 2, arbitrary: tie('tree') },
      // An array of objects with the same names: a JSONata path (or `$lookup`) would map over it.
      { weight: 1, arbitrary: fc.array(tie('tree'), { maxLength: 2 }) },
    ),
    { maxKeys: 4, depthIdentifier: 'tree' },
  ),
}));
const step: fc.Arbitrary<MigrationStep> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), field: path, value: leaf, source: fc.constant(source) }),
  fc.record({ kind: fc.constant('rename' as const), from: path, to: path, source: fc.constant(source) }),
  fc.record({
    kind: fc.constant('drop' as const),
    fields: fc.array(path, { minLength: 1, maxLength: 2 }),
    source: fc.constant(source),
  }),
);

describe('migrationJsonata: the steps', () => {
  it('gives what the contract gives on random steps over random payloads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 5 }), tree, async (steps, payload) => {
        const expression = migrationJsonata(MODEL, migration(steps));
        const expected = reference(payload as Json, steps);
        expect(await viaJsonata(expression, payload as Json)).toEqual(expected);
        expect(viaJavaScript(steps, payload as Json)).toEqual(expected);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('keeps an array of one item an array, and creates missing parents', async () => {
    const steps: MigrationStep[] = [
      { kind: 'set', field: ['entry', 'ids'], value: [7], source },
      { kind: 'rename', from: ['tags'], to: ['meta', 'tags'], source },
      { kind: 'drop', fields: [['gone'], ['absent', 'deeper']], source },
    ];
    const payload = { tags: [['x']], gone: 1, kept: [{ a: 1 }] };
    expect(await viaJsonata(migrationJsonata(MODEL, migration(steps)), payload)).toEqual({
      entry: { ids: [7] },
      meta: { tags: [['x']] },
      kept: [{ a: 1 }],
    });
  });
});

/** `cel` values over account.removed-v1 (account.created-v1's fields), each in the translated subset. */
const CEL_CORPUS = [
  "'was ' + message.account_number",
  'size(message.account_number)',
  'size(message.account_user_emails) + 1',
  'message.account_user_emails',
  'has(message.score) ? message.score * 2.0 - 1.0 : -1.5',
  'has(message.score) && message.score >= 0.5 || size(message.account_number) > 3',
  'has(message.is_imported) && !message.is_imported',
  "message.account_number.startsWith('A')",
  "message.account_number.endsWith('1')",
  "message.account_number.contains('-')",
  'message.account_number.lowerAscii()',
  'message.account_number.upperAscii()',
  "'a@b.c' in message.account_user_emails",
  "has(message.status) && message.status == 'active'",
  "message.account_number != '' ? message.account_number : 'none'",
  'has(message.tags) ? size(message.tags) : 0',
  '-size(message.account_number) * 3',
  'has(message.score) ? message.score / 4.0 : 0.0',
  '[1, 2, size(message.account_user_emails)]',
  'has(message.opened_on)',
];

const scope = () => {
  const from = MODEL.events[FROM]!;
  return {
    variable: 'message' as const,
    name: FROM,
    fields: from.fields,
    shapeFields: (n: string) => MODEL.shapes[n]?.fields,
  };
};
const shapes = Object.fromEntries(Object.entries(MODEL.shapes).map(([n, shape]) => [n, shape.fields]));

describe('migrationJsonata: cel values', () => {
  it.each(CEL_CORPUS)('%s gives what @bufbuild/cel gives', async (cel) => {
    const steps: MigrationStep[] = [
      { kind: 'set', field: ['reason'], cel, source },
      { kind: 'set', field: ['changes', 'first'], cel, source },
      { kind: 'drop', fields: [['score']], source },
    ];
    const expression = migrationJsonata(MODEL, migration(steps));
    const payloads = payloadOf(MODEL.events[FROM]!.fields, shapes).filter((payload) => {
      const score = payload.score;
      return typeof score !== 'number' || Math.abs(score) < 1e300; // CEL gives an infinity JSON has not
    });
    await fc.assert(
      fc.asyncProperty(payloads, async (payload) => {
        const expected = reference(payload, steps);
        expect(await viaJsonata(expression, payload)).toEqual(expected);
        expect(viaJavaScript(steps, payload)).toEqual(expected);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  const REFUSED: [string, RegExp][] = [
    ['size(message.account_number) / 2', /int division/],
    ['size(message.account_number) % 2', /%/],
    ["message.account_number < 'b'", /code point/],
    ["message.account_user_emails.exists(e, e == 'x')", /exists/],
    ["message.account_user_emails + ['x']", /lists joined/],
    ['message.account_user_emails[0]', /indexing/],
    ['message.account_number.trim()', /trim/],
    ["message.account_number.matches('^A')", /matches/],
    ["timestamp('2024-01-01T00:00:00Z')", /timestamps/],
    ['9007199254740993', /2\^53/],
  ];
  it.each(REFUSED)('refuses %s with a reason (never an approximate translation)', (cel, reason) => {
    const checked = checkExpression(cel, scope());
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
    expect(jsonataSupport(checked.node)).toMatch(reason);
    const steps: MigrationStep[] = [{ kind: 'set', field: ['reason'], cel, source }];
    expect(() => migrationJsonata(MODEL, migration(steps))).toThrow(MigrationJsonataError);
  });

  it('accepts every expression of the corpus', () => {
    for (const cel of CEL_CORPUS) {
      const checked = checkExpression(cel, scope());
      if (!checked.ok) throw new Error(`${cel}: ${JSON.stringify(checked.problems)}`);
      expect(jsonataSupport(checked.node)).toBeUndefined();
    }
  });
});
