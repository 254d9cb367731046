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

/**
 * `expect.extend` with the matchers of two group packages: the last `toBeValidEvent` wins, and it
 * must still know the events of the first (it used to know only its own group's keys).
 */
beforeAll(async () => {
  const built = await buildPackages(fixturePath('small'));
  for (const slug of ['account', 'billing']) {
    const module = (await import(pathToFileURL(`${built.out}/${slug}/matchers.js`).href)) as {
      matchers: EventMatchers;
    };
    expect.extend(module.matchers);
  }
});

describe('toBeValidEvent after extending with two group packages', () => {
  it('knows the events of the first package', () => {
    expect({ account_number: 'A', account_user_emails: [] }).toBeValidEvent('account.created-v1');
    expect({ account_number: 5 }).not.toBeValidEvent('account.created-v1');
  });

  it('knows the events of the second package', () => {
    expect({ mprn: 'M' }).toBeValidEvent('meterpoint.gas.partial-v1');
    expect({}).not.toBeValidEvent('meterpoint.gas.partial-v1');
  });

  it('names both packages, with a did-you-mean, for a key neither has', () => {
    expect(() => expect({}).toBeValidEvent('account.creatd-v1')).toThrow(
      '`account.creatd-v1` is not an event of @fixture-events/account or @fixture-events/billing. Did you mean `account.created-v1`?',
    );
  });
});
