import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupApi, ValidationResult } from '../../../generators/runtime/runtime.js';
import { fixturePath } from '../../helpers.js';
import { buildPackages } from './build-packages.js';

/**
 * The validator never throws, whatever it is given, and what ajv's generated code does with hostile
 * input is pinned down here: `__proto__` and `constructor` keys, cycles, getters that throw, proxies,
 * BigInt, functions, 10 000-deep nesting, 1 MB strings.
 */
let account: GroupApi<Record<string, unknown>>;
let billing: GroupApi<Record<string, unknown>>;
beforeAll(async () => {
  const built = await buildPackages(fixturePath('small'));
  account = await built.importGroup('account');
  billing = await built.importGroup('billing');
});

const valid = { account_number: 'A-1', account_user_emails: ['a@example.com'] };
const problems = (result: ValidationResult) =>
  result.valid ? [] : result.error.errors.map((e) => [e.code, e.attr]);

function deep(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { next: value, list: [value] };
  return value;
}

describe('hostile payloads', () => {
  const hostile: [string, () => unknown][] = [
    ['undefined', () => undefined],
    ['a BigInt', () => 10n],
    ['a function', () => () => 1],
    ['a symbol', () => Symbol('s')],
    ['a BigInt field', () => ({ ...valid, tags: [[1n]] })],
    ['a function field', () => ({ ...valid, account_number: () => 'A' })],
    [
      'a cyclic object',
      () => {
        const payload: Record<string, unknown> = { ...valid };
        payload.self = payload;
        return payload;
      },
    ],
    [
      'a getter that throws',
      () =>
        Object.defineProperty({ ...valid }, 'account_number', {
          enumerable: true,
          get() {
            throw new Error('boom');
          },
        }),
    ],
    [
      'a proxy whose traps throw',
      () =>
        new Proxy(
          {},
          {
            get() {
              throw new TypeError('trap');
            },
            ownKeys() {
              throw new TypeError('trap');
            },
          },
        ),
    ],
    [
      'a revoked proxy',
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
    ],
    ['10 000-deep nesting in an undocumented field', () => ({ ...valid, extra: deep(10_000) })],
    ['10 000-deep nesting in a documented field', () => ({ ...valid, tags: deep(10_000) })],
    [
      'a 1 MB string',
      () => ({ ...valid, account_number: 'x'.repeat(1 << 20), opened_on: '2'.repeat(1 << 20) }),
    ],
    ['a 1 MB key', () => ({ ...valid, ['k'.repeat(1 << 20)]: 1 })],
    ['an object with a null prototype', () => Object.assign(Object.create(null), valid)],
  ];

  it.each(hostile)('%s: no throw, in either mode, and a result', (_name, make) => {
    for (const mode of ['strict', 'tolerant'] as const) {
      let result: ValidationResult | undefined;
      expect(() => {
        result = account.validate('account.created-v1', make(), { mode });
      }).not.toThrow();
      expect(typeof result?.valid).toBe('boolean');
      expect(() => JSON.stringify(result)).not.toThrow();
      expect(() => account.isEvent('account.created-v1', make(), { mode })).not.toThrow();
    }
  });

  it('reports what it could not read as `unreadable_payload`, never as a throw', () => {
    const getter = Object.defineProperty({ ...valid }, 'account_number', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const result = account.validate('account.created-v1', getter);
    expect(problems(result)).toEqual([['unreadable_payload', '']]);
    expect(result.valid ? '' : result.error.errors[0]!.detail).toContain('Error: boom');
  });

  it('rejects non-objects at attr "" with invalid_type', () => {
    for (const payload of [undefined, 10n, () => 1, 'x', 1, true, []]) {
      expect(problems(account.validate('account.created-v1', payload))).toEqual([['invalid_type', '']]);
    }
  });

  it('treats a JSON `__proto__` key as an undocumented field and pollutes nothing', () => {
    const payload = JSON.parse(
      '{"account_number":"A","account_user_emails":[],"__proto__":{"polluted":true}}',
    );
    expect(problems(account.validate('account.created-v1', payload))).toEqual([
      ['unknown_field', '__proto__'],
    ]);
    expect(account.validate('account.created-v1', payload, { mode: 'tolerant' }).valid).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('treats `constructor` and `__proto__` keys in nested shapes alike', () => {
    const payload = JSON.parse(
      '{"ledger":{"account":{"number":"1","constructor":1},"number":"L","__proto__":[]}}',
    );
    expect(problems(billing.validate('billing.ledger.entry_posted-v1', payload))).toEqual([
      ['unknown_field', 'ledger.__proto__'],
      ['unknown_field', 'ledger.account.constructor'],
    ]);
  });

  it('does not take a field from the prototype of a JSON object', () => {
    // Object.prototype has `constructor`, not `account_number`: a missing field stays missing.
    expect(problems(account.validate('account.created-v1', JSON.parse('{"constructor":{}}')))).toEqual([
      ['required', 'account_number'],
      ['required', 'account_user_emails'],
      ['unknown_field', 'constructor'],
    ]);
  });

  it('does not walk a cycle through a documented field', () => {
    const payload: Record<string, unknown> = {};
    payload.ledger = payload;
    expect(problems(billing.validate('billing.ledger.entry_posted-v1', payload))).toEqual([
      ['required', 'ledger.account'],
      ['required', 'ledger.number'],
      ['unknown_field', 'ledger.ledger'],
    ]);
  });

  it('accepts deep nesting inside a free object without walking it', () => {
    const payload = { ...valid, reason: 'r', changes: deep(10_000) };
    expect(account.validate('account.removed-v2', payload).valid).toBe(true);
  });

  it('treats a non-string key or odd options as an unknown event or the default mode', () => {
    expect(account.validate(42 as never, valid)).toMatchObject({
      valid: false,
      error: { code: 'unknown_event' },
    });
    expect(account.validate(Symbol('k') as never, valid)).toMatchObject({
      valid: false,
      error: { code: 'unknown_event' },
    });
    const throwing = Object.defineProperty({}, 'mode', {
      get() {
        throw new Error('no');
      },
    });
    expect(account.validate('account.created-v1', valid, throwing)).toEqual({ valid: true });
    expect(account.validate('account.created-v1', valid, null as never)).toEqual({ valid: true });
  });
});
