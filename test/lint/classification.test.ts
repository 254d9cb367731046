import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { fieldColumns, fieldRows } from '../../generators/docs/fields.js';
import { renderPage } from '../../generators/docs/render.js';
import { emitGroupTypes } from '../../generators/emit/package/types.js';
import { loadCatalogueFromSources } from '../../generators/load/index.js';
import { shippedEventSchema, standaloneEventSchema } from '../../generators/schema/json-schema.js';
import { loadValid, REPO } from '../helpers.js';

const CATALOGUE = join(REPO, 'test', 'fixtures', 'lint', 'personal-data-unclassified', 'good');
const KEY = 'orders.placed-v1';

describe('a field classification, from the catalogue to every output', () => {
  const catalogue = loadValid(CATALOGUE);
  const field = (name: string) => catalogue.events[KEY]!.fields.find((f) => f.name === name)!;

  it('is in the model as written, and absent when not written', () => {
    expect(field('customer_email').classification).toBe('personal');
    expect(field('iban').classification).toBe('sensitive');
    expect(field('email_verified').classification).toBeUndefined();
  });

  it('is an x-classification annotation in the documents and registry schemas', () => {
    const schema = standaloneEventSchema(catalogue, KEY) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.properties.customer_email!['x-classification']).toBe('personal');
    expect(schema.properties.date_of_birth!['x-classification']).toBe('sensitive');
    expect(schema.properties.email_verified).not.toHaveProperty('x-classification');
  });

  it('is left out of the shipped schema, which a default strict ajv still compiles', () => {
    const shipped = shippedEventSchema(catalogue, KEY);
    expect(JSON.stringify(shipped)).not.toContain('x-classification');
    const ajv = new Ajv2020();
    addFormats.default(ajv);
    expect(() => ajv.compile(shipped)).not.toThrow();
  });

  it('is a @classification tag in the generated types', () => {
    const types = emitGroupTypes(catalogue, catalogue.groups[0]!, '@fixture-events/orders');
    expect(types).toMatch(/\* @classification personal\n\s+\*\/\n\s+customer_email: string;/);
    expect(types).toMatch(/\* @classification sensitive\n\s+\*\/\n\s+iban\?: string;/);
  });

  it("is shown in the portal's fields table", () => {
    const rows = fieldRows(catalogue, catalogue.events[KEY]!.fields);
    expect(rows.find((row) => row.name === 'phone_number')).toMatchObject({ classification: 'personal' });
    const html = renderPage(
      'shape',
      { root: './', title: 'x', siteTitle: 'x' },
      { name: 'X', rows, usedBy: [], columns: fieldColumns(rows) },
    );
    expect(html).toContain('<small data-classification="sensitive">sensitive data</small>');
  });

  it('must be one of the known values: anything else is an invalid-value problem at its place', () => {
    const result = loadCatalogueFromSources([
      { path: 'eventry.config.yaml', text: 'title: T\nversion: 1.0.0\nscope: "@s"\n' },
      {
        path: 'orders.yaml',
        text: 'group: {slug: orders, title: Orders}\nevents:\n  orders.placed-v1:\n    fields:\n      email: {type: string, classification: secret}\n',
      },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      expect.objectContaining({ code: 'invalid-value', file: 'orders.yaml', line: 5 }),
    ]);
  });
});
