import { beforeAll, describe, expect, it } from 'vitest';
import { suggest as loaderSuggest } from '../../../generators/load/suggest.js';
import type { GroupApi, ValidateOptions, ValidationResult } from '../../../generators/runtime/runtime.js';
import { suggest } from '../../../generators/runtime/runtime.js';
import { fixturePath } from '../../helpers.js';
import { buildPackages } from './build-packages.js';

/**
 * Hostile and mistaken calls: a payload with very many problems gets a capped list from a walk that
 * stops early; an unknown mode or `maxErrors` is an error, not strict mode; unknown event keys get a
 * did-you-mean only when one is close; null array items and odd keys get messages and paths that fit.
 */
let account: GroupApi<Record<string, unknown>>;
let billing: GroupApi<Record<string, unknown>>;
beforeAll(async () => {
  const built = await buildPackages(fixturePath('small'));
  account = await built.importGroup('account');
  billing = await built.importGroup('billing');
});

const valid = { account_number: 'A-1', account_user_emails: ['a@example.com'] };
const KEY = 'account.created-v1';
const errorsOf = (result: ValidationResult) => (result.valid ? [] : result.error.errors);
const withKeys = (count: number) => {
  const payload: Record<string, unknown> = { ...valid };
  for (let i = 0; i < count; i++) payload[`k${i}`] = i;
  return payload;
};

describe('a payload with very many problems', () => {
  it('lists the first 100 and says exactly how many more', () => {
    const result = account.validate(KEY, withKeys(1_000));
    const errors = errorsOf(result);
    expect(errors).toHaveLength(101);
    expect(errors[99]).toMatchObject({ code: 'unknown_field', attr: 'k99' });
    expect(errors[100]).toEqual({
      detail: '900 more problems are not listed: a result lists the first 100 (option `maxErrors`).',
      code: 'too_many_problems',
      attr: '',
    });
    expect(result.valid ? '' : result.error.detail).toBe(
      'The payload is not a valid `account.created-v1` event: 1000 problems.',
    );
  });

  it('takes `maxErrors`', () => {
    const errors = errorsOf(account.validate(KEY, withKeys(8), { maxErrors: 5 }));
    expect(errors.map((e) => e.code)).toEqual([...Array(5).fill('unknown_field'), 'too_many_problems']);
    expect(errors[5]!.detail).toMatch(/^3 more problems are not listed/);
    expect(errorsOf(account.validate(KEY, withKeys(8), { maxErrors: 8 }))).toHaveLength(8);
  });

  it('cuts each failure by its own options, after earlier ones made the summary of its count', () => {
    const payload = withKeys(3);
    const summary = 'The payload is not a valid `account.created-v1` event: 3 problems.';
    const asked: [ValidateOptions | null | undefined, number][] = [
      [undefined, 3],
      [{ maxErrors: 1 }, 2],
      [undefined, 3],
      [null, 3],
      [{ maxErrors: 2 }, 3],
      [{ maxErrors: 3 }, 3],
      [{ mode: 'strict' }, 3],
      [{ maxErrors: 1 }, 2],
    ];
    for (const [options, listed] of asked) {
      const result = account.validate(KEY, payload, options as ValidateOptions);
      expect(result.valid ? '' : result.error.detail).toBe(summary);
      const errors = errorsOf(result);
      expect(errors).toHaveLength(listed);
      const max = options?.maxErrors ?? 100;
      expect(errors.at(-1)!.code).toBe(max < 3 ? 'too_many_problems' : 'unknown_field');
    }
  });

  it('stops reading a million bad array items after 10 000 problems', () => {
    let highest = -1;
    const items = new Proxy(
      Array.from({ length: 1_000_000 }, (_, i) => i),
      {
        get(target, property, receiver) {
          if (typeof property === 'string' && /^\d+$/.test(property)) highest = Math.max(highest, +property);
          return Reflect.get(target, property, receiver);
        },
      },
    );
    const result = account.validate(KEY, { ...valid, account_user_emails: items });
    const errors = errorsOf(result);
    expect(errors).toHaveLength(101);
    expect(errors[100]!.detail).toBe(
      'At least 9900 more problems are not listed: a result lists the first 100 (option `maxErrors`).',
    );
    expect(result.valid ? '' : result.error.detail).toMatch(/: at least 10000 problems\.$/);
    // The one run stops at the 10 000th problem.
    expect(highest).toBe(9_999);
  });

  it('does not walk undocumented keys in tolerant mode', () => {
    let enumerated = 0;
    const payload = new Proxy(
      { ...withKeys(1_000), account_number: 5 },
      {
        ownKeys(target) {
          enumerated += 1;
          return Reflect.ownKeys(target);
        },
      },
    );
    const errors = errorsOf(account.validate(KEY, payload, { mode: 'tolerant' }));
    expect(errors.map((e) => [e.code, e.attr])).toEqual([['invalid_type', 'account_number']]);
    expect(enumerated).toBe(0);
  });
});

describe('options', () => {
  it.each([
    [{ mode: 'lenient' }, 'unknown validation mode "lenient"'],
    [{ mode: 'Tolerant' }, 'unknown validation mode "Tolerant"'],
    [{ mode: 1 }, 'unknown validation mode a number (1)'],
  ])('rejects %j with a TypeError instead of acting strict', (options, message) => {
    const call = () => account.validate(KEY, { ...valid, extra: 1 }, options as ValidateOptions);
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
    expect(() => account.isEvent(KEY, valid, options as ValidateOptions)).toThrow(TypeError);
    expect(() => account.assertEvent(KEY, valid, options as ValidateOptions)).toThrow(TypeError);
  });

  it("a mode whose toString throws: the documented TypeError, not the caller's error", () => {
    const hostile = {
      toString() {
        throw new Error('caller boom');
      },
    };
    for (const options of [{ mode: hostile }, { maxErrors: hostile }]) {
      const call = () => account.validate(KEY, { ...valid, extra: 1 }, options as unknown as ValidateOptions);
      expect(call).toThrow(TypeError);
      expect(call).toThrow(
        /unknown validation mode an object|maxErrors must be a positive integer, not an object/,
      );
    }
    const symbol = { mode: Symbol('x') } as unknown as ValidateOptions;
    expect(() => account.validate(KEY, valid, symbol)).toThrow(
      'unknown validation mode a symbol (Symbol(x))',
    );
  });

  it.each([0, -1, 1.5, '10', Number.NaN])('rejects maxErrors %j once a payload fails', (maxErrors) => {
    const options = { maxErrors } as ValidateOptions;
    expect(() => account.validate(KEY, { ...valid, extra: 1 }, options)).toThrow(/maxErrors must be/);
  });
});

describe('unknown event keys', () => {
  it.each([
    ['account.creatd-v1', ' Did you mean `account.created-v1`?'],
    ['ACCOUNT.CREATED-V1', ' Did you mean `account.created-v1`?'],
    ['nope', ''],
    ['billing.ledger.entry_posted-v1', ''],
    ['x'.repeat(1 << 20), ''],
  ])('%s: a did-you-mean only when a key is close', (key, hint) => {
    const result = account.validate(key, valid);
    expect(result.valid ? '' : result.error.detail).toBe(
      `\`${key}\` is not an event of @fixture-events/account.${hint}`,
    );
  });

  it('is the one suggest the loader uses', () => {
    expect(loaderSuggest).toBe(suggest);
    expect(suggest('Ledgr', ['Ledger', 'Account'])).toBe('Ledger');
    expect(suggest('Zebra', ['Ledger', 'Account'])).toBeUndefined();
  });
});

describe('messages and paths', () => {
  it('says an array holds no null items (not "leave out an optional field")', () => {
    const errors = errorsOf(account.validate(KEY, { ...valid, account_user_emails: ['a', null] }));
    expect(errors).toEqual([
      {
        detail: '`account_user_emails.1` must be a string, not null; an array holds no null items.',
        code: 'invalid_type',
        attr: 'account_user_emails.1',
      },
    ]);
  });

  it('quotes keys that are empty, all digits, dotted or start with a quote', () => {
    const payload = JSON.parse(
      '{"ledger":{"account":{"number":"1","a.b":1},"number":"L","":2,"7":3,"\\"q":4}}',
    );
    expect(errorsOf(billing.validate('billing.ledger.entry_posted-v1', payload)).map((e) => e.attr)).toEqual([
      'ledger."7"',
      'ledger.""',
      'ledger."\\"q"',
      'ledger.account."a.b"',
    ]);
  });
});
