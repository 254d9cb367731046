import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileEventValidators } from '../../../generators/emit/package/validators.js';
import type { GroupApi } from '../../../generators/runtime/runtime.js';
import { standaloneEventSchema } from '../../../generators/schema/json-schema.js';
import { fixturePath, loadValid } from '../../helpers.js';
import { writeModelPackages } from './build-packages.js';

/**
 * Each event ships one validator, for both modes and for valid and invalid payloads: ajv's all-errors
 * checks, which `tolerant` tells to skip the walk over undocumented keys, listing each error's item as
 * found (`add`) in a list they start at the first one, an item either a literal or one the run time's
 * makers give (`missing`, `undocumented`, `mistyped`, `reported`). A build compiles each event once, and
 * a package holds its code once. The mode and the errors belong to each call: a payload getter that
 * validates another payload does not change the list that reads it.
 */
const KEY = 'account.created-v1';
const model = loadValid(fixturePath('small'));
const valid = { account_number: 'A1', account_user_emails: ['a@example.com'] };
const undocumented = { ...valid, added_later: true };

type Item = { code: string; attr: string };
type Validator = (
  payload: unknown,
  instancePath: string,
  parentData: unknown,
  run: undefined,
  tolerant: boolean,
  options: undefined,
) => Item[] | undefined;

describe('one validator per event', () => {
  it('is one validator and its entry point: `tolerant` allows undocumented fields, a list started at the first error gets each', () => {
    const { code } = compileEventValidators(KEY, standaloneEventSchema(model, KEY, 'closed'));
    let started = 0;
    // As the run time's `add`: the first error starts the list, which gets every item.
    const add = (items: Item[] | undefined, _options: unknown, item: Item) => {
      if (items !== undefined) return [...items, item];
      started += 1;
      return [item];
    };
    // As the run time's makers: each makes its place's item and lists it with `add`.
    const made =
      (code: string) =>
      (list: Item[] | undefined, options: unknown, _site: number, prefix: string, last: unknown) =>
        add(list, options, { code, attr: `${prefix}${typeof last === 'string' ? `.${last}` : ''}` });
    const items = () => ({
      missing: made('required'),
      undocumented: made('unknown_field'),
      mistyped: made('invalid_type'),
      reported: made('other'),
    });
    const exports: { validate?: Validator; entry?: unknown; add?: unknown; items?: unknown } = { add, items };
    new Function('exports', 'fullFormats', code)(exports, fullFormats);
    expect(Object.keys(exports)).toEqual(['add', 'items', 'validate', 'entry']);
    const check = (tolerant: boolean, payload: unknown) => {
      started = 0;
      const listed = exports.validate!(payload, '', undefined, undefined, tolerant, undefined);
      return { valid: listed === undefined, started, items: listed?.map((item) => [item.code, item.attr]) };
    };
    expect(check(false, valid)).toEqual({ valid: true, started: 0, items: undefined });
    expect(check(false, undocumented)).toEqual({
      valid: false,
      started: 1,
      items: [['unknown_field', '.added_later']],
    });
    expect(check(true, undocumented)).toEqual({ valid: true, started: 0, items: undefined });
    expect(check(true, { ...undocumented, account_number: 1, account_user_emails: [2, 3] })).toEqual({
      valid: false,
      started: 1,
      items: [
        ['invalid_type', ''],
        ['invalid_type', '.account_user_emails.0'],
        ['invalid_type', '.account_user_emails.1'],
      ],
    });
    // A missing field's path is known as the code is written: its item is a literal, the run time's text.
    expect(check(false, {})).toMatchObject({
      items: [
        ['required', 'account_number'],
        ['required', 'account_user_emails'],
      ],
    });
  });

  describe('in a package', () => {
    let account: GroupApi<Record<string, unknown>>;
    beforeAll(async () => {
      const root = await writeModelPackages(structuredClone(model));
      account = await import(pathToFileURL(join(root, 'account', 'index.js')).href);
    }, 60_000);

    it('a getter validating another payload in tolerant mode leaves a strict run strict', () => {
      const inner: boolean[] = [];
      const payload = Object.defineProperty({ ...undocumented }, 'account_number', {
        enumerable: true,
        get() {
          inner.push(account.isEvent(KEY, { ...undocumented, nested: 1 }, { mode: 'tolerant' }));
          return 'A1';
        },
      });
      const result = account.validate(KEY, payload);
      expect(inner.length).toBeGreaterThan(0);
      expect(inner.every(Boolean)).toBe(true);
      expect(result.valid ? [] : result.error.errors.map((item) => [item.code, item.attr])).toEqual([
        ['unknown_field', 'added_later'],
      ]);
    });

    it('an item getter validating an invalid payload of the same event mid-run: each result lists its own problems', () => {
      const problems = (result: ReturnType<typeof account.validate>) =>
        result.valid ? [] : result.error.errors.map((item) => [item.code, item.attr]);
      const inner: unknown[] = [];
      const emails = Object.defineProperty([], '0', {
        enumerable: true,
        get() {
          inner.push(problems(account.validate(KEY, { account_number: 1, account_user_emails: [] })));
          return 'a@example.com';
        },
      });
      // The undocumented field is reported (the outer run opened) before the array's items are read.
      const outer = account.validate(KEY, { account_number: 'A1', account_user_emails: emails, extra: 1 });
      expect(problems(outer)).toEqual([['unknown_field', 'extra']]);
      expect(inner).toEqual([[['invalid_type', 'account_number']]]);
    });

    it('a call after one that threw (bad maxErrors) or failed lists only its own problems', () => {
      const problems = (payload: unknown, options?: { maxErrors?: number }) => {
        const result = account.validate(KEY, payload, options);
        return result.valid ? [] : result.error.errors.map((item) => [item.code, item.attr]);
      };
      expect(() => account.validate(KEY, { ...valid, extra: 1 }, { maxErrors: 0 })).toThrow(/maxErrors/);
      expect(problems({ ...valid, account_number: 1 }, { maxErrors: 5 })).toEqual([
        ['invalid_type', 'account_number'],
      ]);
      expect(problems({ account_number: 'A1' })).toEqual([['required', 'account_user_emails']]);
      expect(account.validate(KEY, valid)).toEqual({ valid: true });
    });

    it('a getter validating another payload in strict mode leaves a tolerant run tolerant', () => {
      const payload = Object.defineProperty({ ...undocumented }, 'account_number', {
        enumerable: true,
        get() {
          account.validate(KEY, { ...undocumented, nested: 1 });
          return 'A1';
        },
      });
      expect(account.validate(KEY, payload, { mode: 'tolerant' })).toEqual({ valid: true });
    });
  });
});
