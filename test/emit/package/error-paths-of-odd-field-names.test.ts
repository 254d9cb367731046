import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAjv, openEventSchema } from '../../../generators/emit/package/validators.js';
import type { Catalogue, Field, FieldType } from '../../../generators/model.js';
import type { GroupApi, ValidationResult } from '../../../generators/runtime/runtime.js';
import { toErrorItems } from '../../../generators/runtime/runtime.js';
import { standaloneEventSchema } from '../../../generators/schema/json-schema.js';
import { fixturePath, loadValid } from '../../helpers.js';
import { writeModelPackages } from './build-packages.js';

/**
 * The generated all-errors code builds each problem's dot path itself (at build time for field names,
 * at run time for array indexes) and says whether a value is an array item: the attrs and details must
 * be those the run time's `toDotPath` gives from ajv's JSON Pointers, for field names that need quoting
 * or pointer escapes, at the top, in a shape, in an array of shapes compiled to its own function.
 */
const KEY = 'lifecycle.support-site.sale-1.0.0';
const ODD = ['a.b', '"q', 'x/y~z', '0', ''];

let model: Catalogue;
let account: GroupApi<Record<string, unknown>>;
beforeAll(async () => {
  model = structuredClone(loadValid(fixturePath('small')));
  const event = model.events[KEY]!;
  const source = event.fields[0]!.source;
  const field = (name: string, type: FieldType, required = false): Field => ({
    name,
    type,
    required,
    source,
  });
  const integer: FieldType = { kind: 'integer' };
  // A shape that references another is compiled to a function of its own, called for each item.
  model.shapes.Odd = {
    name: 'Odd',
    fields: [...ODD.map((name) => field(name, integer)), field('period', { kind: 'shape', name: 'Period' })],
    source,
  };
  event.fields.push(
    ...ODD.map((name) => field(name, integer)),
    field('odd', { kind: 'shape', name: 'Odd' }),
    field('odds', { kind: 'array', items: { kind: 'shape', name: 'Odd' } }),
  );
  const root = await writeModelPackages(model);
  account = await import(pathToFileURL(join(root, 'account', 'index.js')).href);
}, 60_000);

const wrong = () => Object.fromEntries(ODD.map((name) => [name, 'not a number']));

describe('error paths of field names that need quoting or escapes', () => {
  it('match ajv at run time mapped by toDotPath, in both modes', () => {
    const payloads = [
      { support_user_id: 'u', ...wrong(), odd: wrong(), odds: [wrong(), null, { period: null }] },
      { support_user_id: 'u', odd: { ...wrong(), 'c.d': 1 }, odds: [{}, { 'e/f': 1, period: { start: 1 } }] },
      { support_user_id: 'u', odd: null, odds: null },
    ];
    const ajv = createAjv({ allErrors: true });
    for (const mode of ['strict', 'tolerant'] as const) {
      const reference = ajv.compile(
        mode === 'strict' ? standaloneEventSchema(model, KEY, 'closed') : openEventSchema(model, KEY),
      );
      for (const payload of payloads) {
        expect(reference(payload)).toBe(false);
        const got = account.validate(KEY, payload, { mode, maxErrors: 1000 }) as ValidationResult;
        expect(got.valid ? [] : got.error.errors).toEqual(toErrorItems(reference.errors!, payload, false));
      }
    }
  });

  it('quotes keys with dots, leading quotes and empty keys, and unescapes `~` and `/`', () => {
    const result = account.validate(KEY, { support_user_id: 'u', odds: [wrong()] });
    expect(result.valid ? [] : result.error.errors.map((item) => item.attr)).toEqual([
      // An integer-like key comes first in a JavaScript object's key order.
      'odds.0.0',
      'odds.0."a.b"',
      'odds.0."\\"q"',
      'odds.0.x/y~z',
      'odds.0.""',
    ]);
  });

  it('says a null item of an array of shapes is an array item, and a null shape field is not', () => {
    const result = account.validate(KEY, { support_user_id: 'u', odd: null, odds: [null] });
    expect(result.valid ? [] : result.error.errors.map((item) => item.detail)).toEqual([
      '`odd` must be an object, not null; null is never a value here: a required field needs an object, an optional field with no value is left out.',
      '`odds.0` must be an object, not null; an array holds no null items.',
    ]);
  });
});
