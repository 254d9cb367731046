import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constantMisfit } from '../../generators/load/migration-constant.js';
import type { Catalogue, FieldType } from '../../generators/model.js';
import { shapeSchema, typeSchema } from '../../generators/schema/json-schema.js';
import { loadValid, REPO } from '../helpers.js';

// The loader's constant check claims what the validators would say of a `set: {value}`: it is held to
// ajv on the field's closed JSON Schema (the one every emitter writes), on values near and far from fitting.

const model: Catalogue = loadValid(`${REPO}/catalogue`);
const shapeFields = (name: string) => model.shapes[name]?.fields;

function ajvCheck(type: FieldType): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: true });
  addFormats.default(ajv);
  const options = { ref: (name: string) => `#/$defs/${name}`, mode: 'closed' as const, bare: true };
  const $defs = Object.fromEntries(
    Object.values(model.shapes).map((shape) => [shape.name, shapeSchema(shape, options)]),
  );
  const validate = ajv.compile({ ...typeSchema(type, options), $defs });
  return (value) => validate(value);
}

/** Values of a type, most fitting, some with one thing wrong: a field missing, extra or mistyped. */
function near(type: FieldType, depth = 0): fc.Arbitrary<unknown> {
  // Mostly fitting, so that a shape of many fields fits as a whole often enough.
  const wrong = fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: wrongValue, weight: 1 });
  const good = (arbitrary: fc.Arbitrary<unknown>) =>
    fc.oneof({ arbitrary, weight: 12 }, { arbitrary: wrong, weight: 1 });
  return good(fitting(type, depth, wrong));
}

const wrongValue = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant({}), fc.constant([]));

function fitting(type: FieldType, depth: number, wrong: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  switch (type.kind) {
    case 'string':
      if (type.enum) return fc.constantFrom(...type.enum);
      if (type.format === 'date')
        return fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
          fc.constant('2024-02-30'),
        );
      if (type.format === 'date-time')
        return fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constant('2024-01-31T25:00:00Z'),
        );
      return fc.string();
    case 'integer':
      return fc.oneof(fc.integer(), fc.double({ noNaN: true }));
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'object':
      return fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()));
    case 'array':
      return depth > 2 ? fc.constant([]) : fc.oneof(fc.array(near(type.items, depth + 1), { maxLength: 3 }));
    case 'shape': {
      const fields = shapeFields(type.name) ?? [];
      if (depth > 2) return wrong;
      const entries = Object.fromEntries(fields.map((field) => [field.name, near(field.type, depth + 1)]));
      const requiredKeys = fields.filter((field) => field.required).map((field) => field.name);
      const record = fc.record(entries, { requiredKeys });
      return fc.oneof(
        record,
        record.map((value) => ({ ...value, not_a_field: 1 })),
        fc.record(entries, { requiredKeys: [] }),
      );
    }
  }
}

const TYPES: [string, FieldType][] = [
  ['a shape with required and optional fields', { kind: 'shape', name: 'LedgerEntryRemoval' }],
  ['a shape of shapes', { kind: 'shape', name: 'Ledger' }],
  ['an array of integers', { kind: 'array', items: { kind: 'integer' } }],
  ['a date', { kind: 'string', format: 'date' }],
  ['a date-time', { kind: 'string', format: 'date-time' }],
  ['an enum', { kind: 'string', enum: ['a', 'b'] }],
  ['a number', { kind: 'number' }],
  ['a free object', { kind: 'object' }],
];

describe('a migration constant is judged as the validators judge it', () => {
  for (const [name, type] of TYPES) {
    it(`agrees with ajv on ${name}`, () => {
      const ajv = ajvCheck(type);
      const seen = { fits: 0, misfits: 0 };
      fc.assert(
        fc.property(near(type), (value) => {
          const fits = constantMisfit(value, type, shapeFields) === undefined;
          seen[fits ? 'fits' : 'misfits']++;
          expect(fits).toBe(ajv(value));
        }),
        { seed: 160, numRuns: 400 },
      );
      expect(seen.misfits).toBeGreaterThan(0);
      expect(seen.fits).toBeGreaterThan(0);
    });
  }
});
