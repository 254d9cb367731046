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
 * checks, which `tolerant` tells to skip the walk over undocumented keys, handing each error as found
 * to a run they open at the first one (`missing`, `undocumented`, `mistyped`, or `report` for any
 * other). A build compiles each event once, and a package holds its code once.
 * The mode and the errors belong to each call: a payload getter that validates another payload does
 * not change the run that reads it.
 */
const KEY = 'account.created-v1';
const model = loadValid(fixturePath('small'));
const valid = { account_number: 'A1', account_user_emails: ['a@example.com'] };
const undocumented = { ...valid, added_later: true };

type Validator = (
  payload: unknown,
  instancePath: string,
  parentData: unknown,
  run: undefined,
  tolerant: boolean,
  options: undefined,
) => Run | undefined;
/** Where the generated code hands an error: see `ValidatorContext` in generators/runtime/types.ts. */
type Sink = 'missing' | 'undocumented' | 'mistyped' | 'report';
type Run = Record<Sink, () => void>;

describe('one validator per event', () => {
  it('is one validator and its entry point: `tolerant` allows undocumented fields, a run opened at the first error gets each', () => {
    const { code } = compileEventValidators(KEY, standaloneEventSchema(model, KEY, 'closed'));
    let opened = 0;
    let reported = 0;
    const count = () => {
      reported += 1;
    };
    const open = (): Run => {
      opened += 1;
      return { missing: count, undocumented: count, mistyped: count, report: count };
    };
    // As the run time's `fail`: the first error opens a run, which gets every error.
    const reportTo = (run: Run | undefined) => {
      const opened = run ?? open();
      opened.missing();
      return opened;
    };
    const fail = () => ({ missing: reportTo, undocumented: reportTo, mistyped: reportTo });
    const exports: { validate?: Validator; entry?: unknown; open?: unknown; fail?: unknown } = { open, fail };
    new Function('exports', 'fullFormats', code)(exports, fullFormats);
    expect(Object.keys(exports)).toEqual(['open', 'fail', 'validate', 'entry']);
    const check = (tolerant: boolean, payload: unknown) => {
      opened = 0;
      reported = 0;
      const run = exports.validate!(payload, '', undefined, undefined, tolerant, undefined);
      return { valid: run === undefined, opened, reported };
    };
    expect(check(false, valid)).toEqual({ valid: true, opened: 0, reported: 0 });
    expect(check(false, undocumented)).toEqual({ valid: false, opened: 1, reported: 1 });
    expect(check(true, undocumented)).toEqual({ valid: true, opened: 0, reported: 0 });
    expect(check(true, { ...undocumented, account_number: 1, account_user_emails: [2, 3] })).toEqual({
      valid: false,
      opened: 1,
      reported: 3,
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
