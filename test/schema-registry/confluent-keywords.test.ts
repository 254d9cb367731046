import { describe, expect, it } from 'vitest';
import {
  judgeDirection,
  loadSchemaText,
  type Policy,
} from '../../generators/schema-registry/confluent-diff/verdict.js';

/**
 * Changes a client may post that the catalogue cannot express (`pattern`, `maxLength`, `maximum`, a type
 * list, `default`, `const`, unions, open and partially open models, ...), at three positions: a property
 * of the event, of a named shape (`$defs`) and of an array's item shape. Each expected verdict was derived
 * by hand from Confluent's source (json/diff/*.java and SchemaTranslator.java at 794611bd86d1):
 * `B:` backward STRICT and LENIENT, `F:` forward STRICT and LENIENT (FULL is both directions).
 */

interface Side {
  /** The schema of property `x` (absent when undefined). */
  x?: unknown;
  /** Property names required besides `id`. */
  required?: string[];
  /** Keywords of the object holding `x` (an undefined value removes one). */
  object?: Record<string, unknown>;
}

const ROWS: [string, Side, Side, string][] = [
  ['pattern added', { x: { type: 'string' } }, { x: { type: 'string', pattern: '^a' } }, 'B:✗✗ F:✓✓'],
  ['pattern removed', { x: { type: 'string', pattern: '^a' } }, { x: { type: 'string' } }, 'B:✓✓ F:✗✗'],
  [
    'pattern changed',
    { x: { type: 'string', pattern: '^a' } },
    { x: { type: 'string', pattern: '^b' } },
    'B:✗✗ F:✗✗',
  ],
  ['maxLength added', { x: { type: 'string' } }, { x: { type: 'string', maxLength: 3 } }, 'B:✗✗ F:✓✓'],
  [
    'maxLength increased',
    { x: { type: 'string', maxLength: 3 } },
    { x: { type: 'string', maxLength: 5 } },
    'B:✓✓ F:✗✗',
  ],
  [
    'maxLength decreased',
    { x: { type: 'string', maxLength: 5 } },
    { x: { type: 'string', maxLength: 3 } },
    'B:✗✗ F:✓✓',
  ],
  ['minLength added', { x: { type: 'string' } }, { x: { type: 'string', minLength: 1 } }, 'B:✗✗ F:✓✓'],
  [
    'minLength decreased',
    { x: { type: 'string', minLength: 3 } },
    { x: { type: 'string', minLength: 1 } },
    'B:✓✓ F:✗✗',
  ],
  ['maximum added', { x: { type: 'integer' } }, { x: { type: 'integer', maximum: 9 } }, 'B:✗✗ F:✓✓'],
  [
    'maximum increased',
    { x: { type: 'integer', maximum: 9 } },
    { x: { type: 'integer', maximum: 99 } },
    'B:✓✓ F:✗✗',
  ],
  [
    'minimum increased',
    { x: { type: 'number', minimum: 0 } },
    { x: { type: 'number', minimum: 1 } },
    'B:✗✗ F:✓✓',
  ],
  [
    'exclusiveMinimum added',
    { x: { type: 'number' } },
    { x: { type: 'number', exclusiveMinimum: 0 } },
    'B:✗✗ F:✓✓',
  ],
  [
    'multipleOf 2 to 4',
    { x: { type: 'integer', multipleOf: 2 } },
    { x: { type: 'integer', multipleOf: 4 } },
    'B:✗✗ F:✓✓',
  ],
  ['made nullable (type list)', { x: { type: 'string' } }, { x: { type: ['string', 'null'] } }, 'B:✓✓ F:✗✗'],
  ['nullable no more', { x: { type: ['string', 'null'] } }, { x: { type: 'string' } }, 'B:✗✗ F:✓✓'],
  [
    'nullable with a limit widened',
    { x: { type: ['string', 'null'], maxLength: 3 } },
    { x: { type: ['string', 'null'], maxLength: 5 } },
    'B:✓✓ F:✗✗',
  ],
  [
    'required field with a default added',
    {},
    { x: { type: 'string', default: 'n/a' }, required: ['x'] },
    'B:✓✓ F:✗✓',
  ],
  [
    'optional field became required, with a default',
    { x: { type: 'string', default: 'n/a' } },
    { x: { type: 'string', default: 'n/a' }, required: ['x'] },
    'B:✓✓ F:✓✓',
  ],
  [
    'default changed',
    { x: { type: 'string', default: 'a' } },
    { x: { type: 'string', default: 'b' } },
    'B:✓✓ F:✓✓',
  ],
  [
    'title changed',
    { x: { type: 'string', title: 'a' } },
    { x: { type: 'string', title: 'b' } },
    'B:✓✓ F:✓✓',
  ],
  [
    'format (not in the catalogue) changed',
    { x: { type: 'string', format: 'email' } },
    { x: { type: 'string', format: 'uri' } },
    'B:✓✓ F:✓✓',
  ],
  ['const changed', { x: { const: 'a' } }, { x: { const: 'b' } }, 'B:✗✗ F:✗✗'],
  [
    'integer enum value added',
    { x: { type: 'integer', enum: [1, 2] } },
    { x: { type: 'integer', enum: [1, 2, 3] } },
    'B:✓✓ F:✗✗',
  ],
  [
    'union member added',
    { x: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
    { x: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }] } },
    'B:✓✓ F:✗✗',
  ],
  [
    'oneOf to anyOf',
    { x: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
    { x: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
    'B:✓✓ F:✗✗',
  ],
  ['not added', { x: { type: 'string' } }, { x: { type: 'string', not: { const: 'x' } } }, 'B:✗✗ F:✓✓'],
  [
    'array maxItems added',
    { x: { type: 'array', items: { type: 'string' } } },
    { x: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
    'B:✗✗ F:✓✓',
  ],
  [
    'array minItems decreased',
    { x: { type: 'array', items: { type: 'string' }, minItems: 2 } },
    { x: { type: 'array', items: { type: 'string' }, minItems: 1 } },
    'B:✓✓ F:✗✗',
  ],
  [
    'array uniqueItems added',
    { x: { type: 'array', items: { type: 'string' } } },
    { x: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
    'B:✗✗ F:✓✓',
  ],
  [
    'array item type changed',
    { x: { type: 'array', items: { type: 'string' } } },
    { x: { type: 'array', items: { type: 'integer' } } },
    'B:✗✗ F:✗✗',
  ],
  [
    'items added to an array',
    { x: { type: 'array' } },
    { x: { type: 'array', items: { type: 'string' } } },
    'B:✗✗ F:✓✓',
  ],
  [
    'object opened (additionalProperties: false dropped)',
    { x: { type: 'string' } },
    { x: { type: 'string' }, object: { additionalProperties: undefined } },
    'B:✓✓ F:✗✓',
  ],
  [
    'object closed',
    { x: { type: 'string' }, object: { additionalProperties: undefined } },
    { x: { type: 'string' } },
    'B:✗✓ F:✓✓',
  ],
  [
    'open object given an additionalProperties schema',
    { x: { type: 'string' }, object: { additionalProperties: undefined } },
    { x: { type: 'string' }, object: { additionalProperties: { type: 'string' } } },
    'B:✗✓ F:✓✓',
  ],
  [
    'property added that a partially open model covers',
    { object: { additionalProperties: { type: 'string' } } },
    { x: { type: 'string' }, object: { additionalProperties: { type: 'string' } } },
    'B:✓✓ F:✓✓',
  ],
  [
    'property added that a partially open model does not cover',
    { object: { additionalProperties: { type: 'string' } } },
    { x: { type: 'integer' }, object: { additionalProperties: { type: 'string' } } },
    'B:✗✗ F:✗✗',
  ],
  [
    'optional property added to an open object',
    { object: { additionalProperties: undefined } },
    { x: { type: 'string' }, object: { additionalProperties: undefined } },
    'B:✗✓ F:✓✓',
  ],
  [
    'property with an empty schema added to an open object',
    { object: { additionalProperties: undefined } },
    { x: {}, object: { additionalProperties: undefined } },
    'B:✓✓ F:✓✓',
  ],
  // Unknown keywords contribute nothing, even named like a member of every object (a table of parts
  // looked up by keyword must not find `constructor` or `toString` there).
  [
    'unknown keywords named like Object members added',
    { x: { type: 'string' } },
    { x: { type: 'string', constructor: 'x', toString: 1, __proto__: null, hasOwnProperty: [] } },
    'B:✓✓ F:✓✓',
  ],
];

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

function objectOf(side: Side): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    properties: { id: { type: 'string' }, ...(side.x === undefined ? {} : { x: side.x }) },
    required: ['id', ...(side.required ?? [])],
    ...side.object,
  };
}

const POSITIONS: Record<string, (side: Side) => unknown> = {
  'event property': (side) => ({ $schema: DIALECT, ...objectOf(side) }),
  'shape property ($defs)': (side) => ({
    $schema: DIALECT,
    type: 'object',
    additionalProperties: false,
    properties: { shape: { $ref: '#/$defs/Shape' } },
    required: ['shape'],
    $defs: { Shape: objectOf(side) },
  }),
  'array item property': (side) => ({
    $schema: DIALECT,
    type: 'object',
    additionalProperties: false,
    properties: { list: { type: 'array', items: { $ref: '#/$defs/Line' } } },
    $defs: { Line: objectOf(side) },
  }),
};

const load = (schema: unknown) => {
  const loaded = loadSchemaText(JSON.stringify(schema));
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.node;
};

const cases = ROWS.flatMap(([name, before, after, want]) =>
  Object.entries(POSITIONS).map(([position, build]) => ({ name, position, before, after, want, build })),
);

describe('Confluent verdicts on keywords the catalogue cannot express', () => {
  it.each(cases)('$name ($position): $want', ({ before, after, want, build }) => {
    const [old, now] = [load(build(before)), load(build(after))];
    const verdict = (direction: 'backward' | 'forward', policy: Policy) =>
      judgeDirection(old, now, direction, policy).incompatible.length === 0 ? '✓' : '✗';
    const got = `B:${verdict('backward', 'STRICT')}${verdict('backward', 'LENIENT')} F:${verdict('forward', 'STRICT')}${verdict('forward', 'LENIENT')}`;
    expect(got).toBe(want);
  });
});
