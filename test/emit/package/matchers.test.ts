import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventMatchers } from '../../../generators/runtime/runtime.js';
import { fixturePath } from '../../helpers.js';
import { buildPackages } from './build-packages.js';

interface EventAssertions<R = unknown> {
  toBeValidEvent(key: string, options?: { mode?: 'strict' | 'tolerant' }): R;
}
declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest's own declaration uses `any`.
  interface Matchers<T = any> extends EventAssertions<T> {}
}

/** `expect(payload).toBeValidEvent(key)` from `<pkg>/matchers`, registered with vitest's `expect.extend`. */
beforeAll(async () => {
  const built = await buildPackages(fixturePath('small'));
  const module = (await import(pathToFileURL(`${built.out}/account/matchers.js`).href)) as {
    matchers: EventMatchers;
  };
  // An interface has no index signature, which `expect.extend` asks for; the spread registers the same matchers.
  expect.extend({ ...module.matchers });
});

const valid = { account_number: 'A-1', account_user_emails: ['a@example.com'] };

describe('toBeValidEvent', () => {
  it('passes on a valid payload, and `.not` fails on it', () => {
    expect(valid).toBeValidEvent('account.created-v1');
    expect(() => expect(valid).not.toBeValidEvent('account.created-v1')).toThrow(
      'expected the payload not to be a valid `account.created-v1` event (strict mode), but it is',
    );
  });

  it('lists each `attr: detail` when it fails', () => {
    const payload = { account_number: 5, extra: true };
    expect(() => expect(payload).toBeValidEvent('account.created-v1')).toThrow(
      [
        'expected the payload to be a valid `account.created-v1` event (strict mode): The payload is not a valid `account.created-v1` event: 3 problems.',
        '  account_user_emails: `account_user_emails` is required but missing.',
        '  extra: `extra` is not a documented field; only documented fields may be sent.',
        '  account_number: `account_number` must be a string, not an integer.',
      ].join('\n'),
    );
    expect(payload).not.toBeValidEvent('account.created-v1');
  });

  it('takes the mode', () => {
    expect({ ...valid, extra: 1 }).toBeValidEvent('account.created-v1', { mode: 'tolerant' });
    expect({ ...valid, extra: 1 }).not.toBeValidEvent('account.created-v1');
  });

  it('names the payload itself `(payload)` and an unknown key by its code', () => {
    expect(() => expect(null).toBeValidEvent('account.created-v1')).toThrow(
      '  (payload): The payload must be an object, not null.',
    );
    expect(() => expect(valid).toBeValidEvent('account.nope-v1')).toThrow(
      '`account.nope-v1` is not an event of @fixture-events/account.',
    );
  });
});
