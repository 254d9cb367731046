import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../../generators/model.js';
import type { GroupApi, ValidationResult } from '../../../../generators/runtime/runtime.js';
import { fixturePath, loadValid } from '../../../helpers.js';
import { writeModelPackages } from '../build-packages.js';

/**
 * A field with both a format and an enum, given a value of another type, is one problem: its type.
 * ajv checks `enum` before the keywords of a type that has some (`format`), so code in ajv's order
 * reported the enum first, which the run time, having seen no type error at that path yet, listed too.
 */
const KEY = 'account.created-v1';
let account: GroupApi<Record<string, unknown>>;
beforeAll(async () => {
  const model: Catalogue = structuredClone(loadValid(fixturePath('small')));
  const event = model.events[KEY]!;
  const source = event.fields[0]!.source;
  event.fields = [
    {
      name: 'on',
      type: { kind: 'string', format: 'date', enum: ['2020-01-01', '2020-02-30'] },
      required: true,
      source,
    },
  ];
  const root = await writeModelPackages(model);
  account = await import(pathToFileURL(join(root, 'account', 'index.js')).href);
}, 60_000);

const problems = (result: ValidationResult) =>
  result.valid ? [] : result.error.errors.map((e) => [e.code, e.attr]);

describe('a field with a format and an enum', () => {
  it('of the wrong type: one problem, its type', () => {
    expect(problems(account.validate(KEY, { on: null }))).toEqual([['invalid_type', 'on']]);
    expect(problems(account.validate(KEY, { on: 7 }))).toEqual([['invalid_type', 'on']]);
  });

  it('a string: the enum, then the format, as ajv lists them', () => {
    expect(problems(account.validate(KEY, { on: 'x' }))).toEqual([
      ['invalid_value', 'on'],
      ['invalid_format', 'on'],
    ]);
    expect(problems(account.validate(KEY, { on: '2020-02-30' }))).toEqual([['invalid_format', 'on']]);
    expect(account.validate(KEY, { on: '2020-01-01' })).toEqual({ valid: true });
  });
});
