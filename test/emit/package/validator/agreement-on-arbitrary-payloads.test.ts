import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAjv, openEventSchema } from '../../../../generators/emit/package/validators.js';
import type { Catalogue, Field, FieldType, Shape } from '../../../../generators/model.js';
import type { GroupApi, ValidationResult } from '../../../../generators/runtime/runtime.js';
import { toErrorItems } from '../../../../generators/runtime/runtime.js';
import { standaloneEventSchema } from '../../../../generators/schema/json-schema.js';
import { fixturePath, loadValid } from '../../../helpers.js';
import { writeModelPackages } from '../build-packages.js';

/**
 * The generated validator agrees with ajv compiling the same schema at run time on arbitrary payloads
 * of an event that has every kind of field the code generator writes: an enum with a format, a long
 * enum (a loop), integer and number enums, arrays of arrays, a closed object with more than 8 fields
 * checked by their type alone (counted keys, and the quick pass over those fields), shapes inlined and shapes in functions of their own (a shape that holds another),
 * odd field names (`''`, `a.b`, all digits, a leading quote, `constructor`, `toString`), an own
 * `__proto__` key, and an open object. Same verdict and, through the same mapping, the same error items
 * in the same order, in both modes. (A field called `__proto__`, which ajv's `properties` skips, is
 * `prototype-field-names.test.ts`'s.)
 */
const KEY = 'account.created-v1';
const str: FieldType = { kind: 'string' };
const field = (name: string, type: FieldType, required = false): [string, FieldType, boolean] => [
  name,
  type,
  required,
];
const SHAPES: Record<string, [string, FieldType, boolean][]> = {
  Wide: [
    field('w0', str, true),
    field('w1', { kind: 'integer' }, true),
    field('w2', { kind: 'number' }),
    field('w3', { kind: 'boolean' }),
    field('w4', { kind: 'string', enum: ['a', 'b'] }),
    field('w5', { kind: 'string', format: 'date-time' }),
    field('w6', str),
    field('w7', str),
    field('w8', str),
    field('w9', { kind: 'integer', enum: [1, 2] }, true),
    field('w10', { kind: 'object' }),
    field('w11', str, true),
    field('w12', { kind: 'number' }, true),
  ],
  Odd: [
    field('', str, true),
    field('a.b', str),
    field('123', { kind: 'integer' }, true),
    field('"q', str),
    field('constructor', str),
    field('toString', { kind: 'number' }, true),
  ],
  Outer: [
    field('inner', { kind: 'shape', name: 'Wide' }, true),
    field('list', { kind: 'array', items: { kind: 'shape', name: 'Wide' } }),
  ],
};
const EVENT_FIELDS = [
  field('when', { kind: 'string', format: 'date', enum: ['2020-01-01', '2020-02-30', '2021-05-05'] }, true),
  field('big', { kind: 'string', enum: Array.from({ length: 40 }, (_, i) => `v${i}`) }),
  field('ratio', { kind: 'number', enum: [0.5, 2] }),
  field('matrix', { kind: 'array', items: { kind: 'array', items: { kind: 'integer' } } }),
  field('outer', { kind: 'shape', name: 'Outer' }),
  field('outers', { kind: 'array', items: { kind: 'shape', name: 'Outer' } }),
  field('odd', { kind: 'shape', name: 'Odd' }),
  field('any', { kind: 'object' }),
  field('wide', { kind: 'shape', name: 'Wide' }, true),
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A value of `type`: mostly right, sometimes of another JSON type or (for enums, formats) out of range. */
function anyValueOf(type: FieldType, depth: number): fc.Arbitrary<Json> {
  const wrong = fc.constantFrom<Json>(null, 1.5, 7, 'x', true, [], {}, [1], { k: 1 });
  return fc.oneof({ arbitrary: rightValue(type, depth), weight: 5 }, { arbitrary: wrong, weight: 1 });
}

function rightValue(type: FieldType, depth: number): fc.Arbitrary<Json> {
  switch (type.kind) {
    case 'string': {
      const values = type.enum
        ? [...type.enum, 'nope']
        : type.format
          ? ['2020-01-01T00:00:00Z', 'later']
          : undefined;
      return values ? fc.constantFrom<Json>(...values) : fc.string({ maxLength: 3 });
    }
    case 'integer':
    case 'number':
      // In process a payload can hold what JSON cannot: NaN, the infinities, -0 (ajv's number tests decide them).
      return type.enum
        ? fc.constantFrom<Json>(...type.enum, 3)
        : fc.constantFrom<Json>(
            0,
            1,
            -2,
            2.5,
            1e21,
            -0,
            2 ** 53 + 2,
            Number.NaN,
            Number.POSITIVE_INFINITY,
            -Infinity,
          );
    case 'boolean':
      return fc.boolean();
    case 'object':
      return fc.dictionary(fc.string({ maxLength: 2 }), fc.integer(), { maxKeys: 2 });
    case 'array':
      return fc.array(anyValueOf(type.items, depth + 1), { maxLength: depth > 2 ? 0 : 2 });
    case 'shape':
      return objectOf(SHAPES[type.name]!, depth + 1);
  }
}

/** An object of the fields: each present or not, and sometimes a key no field has. */
function objectOf(fields: [string, FieldType, boolean][], depth: number): fc.Arbitrary<Json> {
  const entries = fields.map(([name, type, required]) =>
    fc
      .option(anyValueOf(type, depth), { nil: undefined, freq: required ? 12 : 3 })
      .map((value) => [name, value] as const),
  );
  const extra = fc.option(fc.constantFrom('extra', 'toString', '__proto__', 'w0 '), {
    nil: undefined,
    freq: 4,
  });
  return fc.tuple(fc.tuple(...entries), extra).map(([pairs, extraKey]) => {
    // Built as text and parsed, as a payload arrives: `__proto__` is then an own key.
    const members = pairs.filter(([, value]) => value !== undefined).map(([name, value]) => [name, value]);
    if (extraKey !== undefined) members.push([extraKey, 1]);
    const text = `{${members.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`;
    return JSON.parse(text) as Json;
  });
}

let group: GroupApi<Record<string, unknown>>;
let reference: { strict: ValidateFunction; tolerant: ValidateFunction };
beforeAll(async () => {
  const model: Catalogue = structuredClone(loadValid(fixturePath('small')));
  const event = model.events[KEY]!;
  const source = event.fields[0]!.source;
  const toFields = (list: [string, FieldType, boolean][]): Field[] =>
    list.map(([name, type, required]) => {
      const made: Field = { name, type, required, source };
      return made;
    });
  for (const [name, fields] of Object.entries(SHAPES)) {
    const shape: Shape = { name, fields: toFields(fields), source };
    model.shapes[name] = shape;
  }
  event.fields = toFields(EVENT_FIELDS);
  const root = await writeModelPackages(model);
  group = await import(pathToFileURL(join(root, 'account', 'index.js')).href);
  const ajv = createAjv({ allErrors: true });
  reference = {
    strict: ajv.compile(standaloneEventSchema(model, KEY, 'closed')),
    tolerant: ajv.compile(openEventSchema(model, KEY)),
  };
}, 120_000);

/** What the generated validator must answer: ajv's verdict on `payload`, its errors through the same mapping. */
function ajvResult(mode: 'strict' | 'tolerant', payload: unknown): ValidationResult {
  const check = reference[mode];
  if (check(payload)) return { valid: true };
  return {
    valid: false,
    error: {
      detail: expect.any(String) as unknown as string,
      code: 'event_failed_validation',
      errors: toErrorItems(check.errors!, payload, false),
    },
  };
}

describe('the generated validator on arbitrary payloads', () => {
  it('agrees with ajv at run time: verdict and error items, in both modes', () => {
    fc.assert(
      fc.property(objectOf(EVENT_FIELDS, 0), (payload) => {
        for (const mode of ['strict', 'tolerant'] as const) {
          expect(group.validate(KEY, payload, { mode, maxErrors: 1000 }), mode).toEqual(
            ajvResult(mode, payload),
          );
        }
      }),
      { numRuns: 400, seed: 31 },
    );
  });
});

describe('a wide object whose quick pass stops early', () => {
  /** The `wide` object, each field a getter that counts its reads (an undocumented key is not read). */
  const counted = (wide: Record<string, Json>) => {
    const reads: Record<string, number> = {};
    const object = {};
    for (const [name, value] of Object.entries(wide)) {
      reads[name] = 0;
      Object.defineProperty(object, name, {
        enumerable: true,
        get() {
          reads[name]! += 1;
          return value;
        },
      });
    }
    return { object, reads };
  };
  const valid: Record<string, Json> = {
    w0: 'a',
    w1: 1,
    w2: 2.5,
    w3: true,
    w4: 'a',
    w6: 'x',
    w9: 1,
    w10: {},
    w11: 'b',
    w12: 3,
  };
  const variants: [string, Record<string, Json>][] = [
    ['valid', valid],
    ['first field of the wrong type', { ...valid, w0: 1 }],
    ['a middle field of the wrong type', { ...valid, w3: 'no' }],
    ['an object field that is an array', { ...valid, w10: [] }],
    [
      'the last plain field missing',
      Object.fromEntries(Object.entries(valid).filter(([name]) => name !== 'w12')),
    ],
    ['a required enum missing', Object.fromEntries(Object.entries(valid).filter(([name]) => name !== 'w9'))],
    ['an undocumented key', { ...valid, later: 1 }],
    ['optional fields absent and an undocumented key', { w0: 'a', w1: 1, w9: 1, w11: 'b', w12: 3, later: 1 }],
    ['two fields wrong and one missing', { ...valid, w1: 'x', w8: 5, w11: undefined as unknown as Json }],
  ];
  it.each(variants)('%s: each field read once, errors as ajv reports them', (_name, wide) => {
    for (const mode of ['strict', 'tolerant'] as const) {
      const want = ajvResult(mode, { when: '2020-01-01', wide });
      const { object, reads } = counted(wide);
      expect(group.validate(KEY, { when: '2020-01-01', wide: object }, { mode }), mode).toEqual(want);
      const documented = Object.entries(reads).filter(([name]) => name !== 'later');
      expect(
        documented.every(([, count]) => count === 1),
        `${mode}: ${JSON.stringify(reads)}`,
      ).toBe(true);
    }
  });
});
