import { describe, expect, it } from 'vitest';
import { parseEventKey } from '../../generators/load/event-key.js';

describe('parseEventKey', () => {
  const cases: [string, { given: string; want: { type: string; version: string } | undefined }][] = [
    ['a vN version', { given: 'account.created-v1', want: { type: 'account.created', version: 'v1' } }],
    [
      'a type with `-` before a semver version',
      {
        given: 'lifecycle.support-site.sale-1.0.0',
        want: { type: 'lifecycle.support-site.sale', version: '1.0.0' },
      },
    ],
    [
      'a semver pre-release with `-` in it',
      { given: 'billing.paid-2.0.0-rc.1', want: { type: 'billing.paid', version: '2.0.0-rc.1' } },
    ],
    [
      'a semver with build metadata is refused (semver drops it)',
      { given: 'a.b-1.2.3+build.7', want: undefined },
    ],
    ['a `v`-prefixed semver is refused', { given: 'account.created-v1.0.0', want: undefined }],
    ['an `=`-prefixed semver is refused', { given: 'account.created-=1.0.0', want: undefined }],
    ['a version with a leading zero is refused', { given: 'account.created-v01', want: undefined }],
    ['an incomplete semver is refused', { given: 'account.created-1.0', want: undefined }],
    ['no version at all', { given: 'account.created', want: undefined }],
    ['an upper-case type', { given: 'Account.created-v1', want: undefined }],
  ];
  it.each(cases)('%s', (_, { given, want }) => {
    expect(parseEventKey(given)).toEqual(want);
  });
});
