import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalogue, Field, FieldType } from '../../../generators/model.js';
import type { GroupApi, ValidationResult } from '../../../generators/runtime/runtime.js';
import { fixturePath, loadValid } from '../../helpers.js';
import { writeModelPackages } from './build-packages.js';

/**
 * Validators read the payload's own properties only: a field named like a member of
 * `Object.prototype` is checked like any other, and a value found only on a prototype (a class getter)
 * is missing. The fields are added to a model in the test, so this holds whatever names the loader
 * accepts.
 */
const KEY = 'lifecycle.support-site.sale-1.0.0';
const string: FieldType = { kind: 'string' };
const odd: [string, FieldType, boolean][] = [
  ['constructor', string, true],
  ['toString', string, true],
  ['valueOf', { kind: 'integer' }, false],
  ['hasOwnProperty', { kind: 'boolean' }, false],
  ['__proto__', string, true],
];

let account: GroupApi<Record<string, unknown>>;
let typesText: string;
beforeAll(async () => {
  const model: Catalogue = structuredClone(loadValid(fixturePath('small')));
  const event = model.events[KEY]!;
  const source = event.fields[0]!.source;
  event.fields.push(...odd.map(([name, type, required]): Field => ({ name, type, required, source })));
  const root = await writeModelPackages(model);
  account = await import(pathToFileURL(join(root, 'account', 'index.js')).href);
  const { readFileSync } = await import('node:fs');
  typesText = readFileSync(join(root, 'account', 'types.d.ts'), 'utf8');
}, 60_000);

const problems = (result: ValidationResult) =>
  result.valid ? [] : result.error.errors.map((e) => [e.code, e.attr]);
const valid = '{"support_user_id":"u","constructor":"c","toString":"t","__proto__":"p"}';

describe('catalogue fields named like Object.prototype members', () => {
  it('accepts a JSON payload that has them', () => {
    expect(account.validate(KEY, JSON.parse(valid))).toEqual({ valid: true });
    const full = JSON.parse(valid);
    Object.assign(full, { valueOf: 3, hasOwnProperty: true });
    expect(account.validate(KEY, full)).toEqual({ valid: true });
  });

  it('checks their types, `__proto__` included', () => {
    const payload = JSON.parse(
      '{"support_user_id":"u","constructor":1,"toString":[],"__proto__":5,"valueOf":"x","hasOwnProperty":1}',
    );
    expect(problems(account.validate(KEY, payload))).toEqual([
      ['invalid_type', 'constructor'],
      ['invalid_type', 'toString'],
      ['invalid_type', 'valueOf'],
      ['invalid_type', 'hasOwnProperty'],
      ['invalid_type', '__proto__'],
    ]);
  });

  it('reports them required when missing, not read from Object.prototype', () => {
    expect(problems(account.validate(KEY, { support_user_id: 'u' }))).toEqual([
      ['required', 'constructor'],
      ['required', 'toString'],
      ['required', '__proto__'],
    ]);
  });

  it('declares them in the TypeScript interface', () => {
    for (const [name, , required] of odd) {
      expect(typesText).toContain(`"${name}"${required ? '' : '?'}:`);
    }
  });
});

describe('a required field only on the prototype is missing', () => {
  it('a class getter does not satisfy `required`', () => {
    class Sale {
      get support_user_id() {
        return 'u';
      }
    }
    const payload = Object.assign(new Sale(), { constructor: 'c', toString: 't' });
    Object.defineProperty(payload, '__proto__', { value: 'p', enumerable: true });
    expect(problems(account.validate(KEY, payload))).toEqual([['required', 'support_user_id']]);
    expect(
      problems(
        account.validate(
          'account.created-v1',
          Object.create({ account_number: 'A', account_user_emails: [] }),
        ),
      ),
    ).toEqual([
      ['required', 'account_number'],
      ['required', 'account_user_emails'],
    ]);
  });

  // Events without member-named fields test the prototype by reading `__proto__` (validators.ts,
  // `OWN_FIELDS`): an own `__proto__`, which JSON.parse makes from a "__proto__" key, is not a prototype.
  it('an own `__proto__` holding the fields is not read as a prototype', () => {
    const parsed = JSON.parse('{"__proto__":{"account_number":"A","account_user_emails":[]}}');
    expect(problems(account.validate('account.created-v1', parsed))).toEqual([
      ['required', 'account_number'],
      ['required', 'account_user_emails'],
      ['unknown_field', '__proto__'],
    ]);
    expect(problems(account.validate('account.created-v1', parsed, { mode: 'tolerant' }))).toEqual([
      ['required', 'account_number'],
      ['required', 'account_user_emails'],
    ]);
  });

  it('a payload on a null prototype is read as its own fields', () => {
    const payload = Object.assign(Object.create(null), { account_number: 'A', account_user_emails: [] });
    expect(account.validate('account.created-v1', payload)).toEqual({ valid: true });
    const broken = Object.assign(Object.create(null), { account_number: 1, account_user_emails: [] });
    expect(problems(account.validate('account.created-v1', broken))).toEqual([
      ['invalid_type', 'account_number'],
    ]);
  });
});
