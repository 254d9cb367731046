import fc from 'fast-check';
import type { Field, FieldType } from '../../generators/model.js';

/** Text that makes string functions disagree if they get units, code points or case wrong. */
const TRICKY_TEXT = [
  '',
  'EUR',
  'USD',
  'eur',
  'test refund',
  'Test',
  'héllo',
  'a😀b',
  '😀',
  '\uffff',
  'a,b,,c',
  '  pad  ',
  'ABC-123',
  'x@y.z',
  '\u2028',
  'TEST',
];

/** RFC 3339 texts protobuf reads, and some it does not (a lowercase `t`, a leap second, year 0). */
const TRICKY_TIMES = [
  '2024-01-31T10:00:00Z',
  '2024-01-31T10:00:00.000000001Z',
  '2024-01-31T10:00:00.1+02:00',
  '2024-01-31T08:00:00.100-00:00',
  '1999-12-31T23:59:59.999999999Z',
  '2024-01-31t10:00:00z',
  '2016-12-31T23:59:60Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2024-02-30T00:00:00Z',
  '2024-01-01T24:00:00Z',
  '2024-01-01T24:00:01Z',
  '0050-03-01T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-01-01T00:00:00+23:59',
  '2024-01-01T00:00:00+24:00',
  '2024-01-31T10:00:00',
];

const text = fc.oneof(
  fc.constantFrom(...TRICKY_TEXT),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);

const dateTime = fc.oneof(
  fc.constantFrom(...TRICKY_TIMES),
  fc
    .date({
      min: new Date('1990-01-01T00:00:00Z'),
      max: new Date('2040-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString()),
  fc
    .tuple(fc.integer({ min: 0, max: 999_999_999 }), fc.constantFrom('Z', '+01:00', '-05:30'))
    .map(([nanos, zone]) => `2024-01-31T10:00:00.${String(nanos).padStart(9, '0')}${zone}`),
);

const integer = fc.oneof(
  fc.integer({ min: -5, max: 25 }),
  fc.integer(),
  fc.constantFrom(0, -0, Number.MAX_SAFE_INTEGER, 2 ** 63, -(2 ** 63)),
);
const number = fc.oneof(
  integer,
  fc.double({ min: -1000, max: 1000, noNaN: true }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A JSON value valid for a field type (as the schema would accept it). */
export function jsonValueOf(
  type: FieldType,
  shapes: Record<string, Field[]>,
  format?: string,
): fc.Arbitrary<unknown> {
  switch (type.kind) {
    case 'string':
      if (type.enum) return fc.constantFrom(...type.enum);
      return type.format === 'date-time' || format === 'date-time' ? dateTime : text;
    case 'integer':
      return type.enum ? fc.constantFrom(...type.enum) : integer;
    case 'number':
      return type.enum ? fc.constantFrom(...type.enum) : number;
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(jsonValueOf(type.items, shapes), { maxLength: 4 });
    case 'shape':
      return payloadOf(shapes[type.name] ?? [], shapes);
    default:
      return fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 });
  }
}

/**
 * A payload valid for `fields`: required fields always, optional ones present or not; as JSON text
 * reads back (fast-check's records have no prototype, which no parsed payload lacks).
 */
export function payloadOf(
  fields: readonly Field[],
  shapes: Record<string, Field[]>,
): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields) model[field.name] = jsonValueOf(field.type, shapes);
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return fc
    .record(model, { requiredKeys: required })
    .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
}
