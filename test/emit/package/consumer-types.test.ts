import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, REPO, typeCheckProject } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/**
 * The generated types, from a consumer's side: a TypeScript project importing the group packages by
 * their package names (resolved through `node_modules` and each package's `exports`) type-checks with
 * `tsc --noEmit`, declaration files included (`skipLibCheck: false`); wrong payloads do not.
 */
let built: BuiltPackages;
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  writeFileSync(join(built.root, 'package.json'), '{ "type": "module", "private": true }\n');
  // The test frameworks, for the README's `expect.extend(matchers)`.
  mkdirSync(join(built.root, 'node_modules', '@jest'), { recursive: true });
  mkdirSync(join(built.root, 'node_modules', '@types'), { recursive: true });
  for (const name of ['vitest', '@jest/globals', 'expect', '@types/node']) {
    symlinkSync(join(REPO, 'node_modules', name), join(built.root, 'node_modules', name), 'dir');
  }
});

/** Runs the repository's `tsc` on one file of the consumer project: exit code and `TSxxxx (line)` list. */
function typeCheck(
  name: string,
  source: string,
  options: Record<string, unknown> = {},
): { status: number | null; errors: string[]; output: string } {
  writeFileSync(join(built.root, 'consumer.ts'), source);
  const { status, errors, output } = typeCheckProject(built.root, ['consumer.ts'], options);
  return { status, errors, output: `${name}:\n${output}` };
}

const GOOD = `
import {
  assertEvent, EventValidationError, eventKeys, isEvent, validate,
  type AccountCreatedV1, type AccountRemovedV1, type EventKey, type EventPayloadMap,
} from '@fixture-events/account';
import { key, validate as validateOne, isEvent as isCreated, type Payload } from '@fixture-events/account/events/account.created-v1';
import { matchers, type EventAssertions } from '@fixture-events/account/matchers';
import type { ContractGroupsVersionCreatedV1, GroupTrait, Ledger, MeterpointGasPartialV1 } from '@fixture-events/billing';

const payload: AccountCreatedV1 = { account_number: 'A', account_user_emails: [], status: 'active', tags: [[1]] };
const result = validate('account.created-v1', payload, { mode: 'tolerant' });
if (!result.valid) {
  const code: 'event_failed_validation' | 'unknown_event' = result.error.code;
  const attrs: string[] = result.error.errors.map((item) => item.attr);
  void code, attrs;
}
validate(String(Date.now()), payload);
const received: unknown = JSON.parse('{}');
if (isEvent('account.created-v1', received)) {
  const number: string = received.account_number;
  void number;
}
if (isCreated(received)) {
  const emails: string[] = received.account_user_emails;
  void emails;
}
assertEvent('account.removed-v2', received);
const changes: { [key: string]: unknown } = received.changes;
const keys: readonly EventKey[] = eventKeys;
const saleKey: EventKey = 'lifecycle.support-site.sale-1.0.0';
const mapped: EventPayloadMap['account.created-v1'] = payload;
const same: Payload = payload;
const old: AccountRemovedV1 = payload;
const literal: 'account.created-v1' = key;
validateOne(payload, { mode: 'strict' });
const trait: GroupTrait = { identifier: 't', data: { anything: [1, { deep: null }] } };
const version: ContractGroupsVersionCreatedV1 = {
  contract_group_identifier: 'g',
  created_versions: [{ identifier: 'v', effective_period: { start: 's', end: 'e' }, traits: [trait] }],
};
const ledger: Ledger = { account: { number: '1' }, number: 'n' };
const partial: MeterpointGasPartialV1 = { mprn: 'M', anything: 1 };
const assertion: EventAssertions<void>['toBeValidEvent'] = () => undefined;
assertion('account.created-v1', { mode: 'tolerant' });
const error = new EventValidationError({ detail: 'd', code: 'unknown_event', errors: [] });
const body: { detail: string; code: string; errors: { detail: string; code: string; attr: string }[] } = error.body;
void changes, keys, saleKey, mapped, same, old, literal, version, ledger, partial, body, matchers;
`;

const header = `import type { AccountCreatedV1, ContractGroupsVersionCreatedV1, Ledger } from '@fixture-events/billing';\n`;
const BAD: [string, { source: string; want: string[] }][] = [
  [
    'a wrong field type',
    {
      source: `import type { AccountCreatedV1 } from '@fixture-events/account';\nexport const p: AccountCreatedV1 = { account_number: 5, account_user_emails: [] };\n`,
      want: ['TS2322 (line 2)'],
    },
  ],
  [
    'a missing required field',
    {
      source: `import type { AccountCreatedV1 } from '@fixture-events/account';\nexport const p: AccountCreatedV1 = { account_number: 'A' };\n`,
      want: ['TS2741 (line 2)'],
    },
  ],
  [
    'a missing required field of a nested shape',
    {
      source: `import type { Ledger } from '@fixture-events/billing';\nexport const l: Ledger = { account: {}, number: 'n' };\n`,
      want: ['TS2741 (line 2)'],
    },
  ],
  [
    'null for an optional field',
    {
      source: `import type { AccountCreatedV1 } from '@fixture-events/account';\nexport const p: AccountCreatedV1 = { account_number: 'A', account_user_emails: [], is_imported: null };\n`,
      want: ['TS2322 (line 2)'],
    },
  ],
  [
    'an undocumented field',
    {
      source: `import type { AccountCreatedV1 } from '@fixture-events/account';\nexport const p: AccountCreatedV1 = { account_number: 'A', account_user_emails: [], extra: 1 };\n`,
      want: ['TS2353 (line 2)'],
    },
  ],
  [
    'a value outside the enum',
    {
      source: `import type { AccountCreatedV1 } from '@fixture-events/account';\nexport const p: AccountCreatedV1 = { account_number: 'A', account_user_emails: [], status: 'open' };\n`,
      want: ['TS2322 (line 2)'],
    },
  ],
  [
    'an event key the package does not have',
    {
      source: `import { isEvent } from '@fixture-events/account';\nexport const ok = isEvent('account.nope-v1', {});\n`,
      want: ['TS2345 (line 2)'],
    },
  ],
  [
    'a field read from a narrowed payload that it does not have',
    {
      source: `import { assertEvent } from '@fixture-events/account';\nconst x: unknown = {};\nassertEvent('account.created-v1', x);\nexport const r = x.reason;\n`,
      want: ['TS2339 (line 4)'],
    },
  ],
  [
    'an event of another group',
    {
      source: header,
      want: ['TS2305 (line 1)'],
    },
  ],
];

describe('a consumer project type-checks against the generated packages', () => {
  it('compiles a correct consumer with tsc --noEmit', () => {
    const { status, errors, output } = typeCheck('good', GOOD);
    expect(errors, output).toEqual([]);
    expect(status, output).toBe(0);
  });

  it.each(BAD)('fails on %s with the expected TypeScript error', (name, { source, want }) => {
    const { status, errors, output } = typeCheck(name, source);
    expect(status, output).not.toBe(0);
    expect(errors, output).toEqual(want);
  });
});

/** The README's test setup, in a strict project, with the matchers of two group packages. */
const VITEST = `
import { expect } from 'vitest';
import { matchers, type EventAssertions } from '@fixture-events/account/matchers';
import { matchers as billingMatchers } from '@fixture-events/billing/matchers';

expect.extend(matchers);
expect.extend(billingMatchers);
declare module 'vitest' {
  interface Matchers<T = any> extends EventAssertions<T> {}
}
expect({}).toBeValidEvent('account.created-v1');
expect({}).not.toBeValidEvent('account.created-v1', { mode: 'tolerant' });
`;

const JEST = `
import { expect } from '@jest/globals';
import { matchers, type EventAssertions } from '@fixture-events/account/matchers';

expect.extend(matchers);
declare module 'expect' {
  interface Matchers<R> extends EventAssertions<R> {}
}
expect({}).toBeValidEvent('account.created-v1');
`;

describe('expect.extend(matchers) type-checks in a strict project', () => {
  it.each([
    ['vitest 4', VITEST],
    ['jest 29 (@jest/globals)', JEST],
  ])('%s', (name, source) => {
    // A test project has Node's types; the frameworks' declarations need them.
    const { status, errors, output } = typeCheck(name, source, { types: ['node'] });
    expect(errors, output).toEqual([]);
    expect(status, output).toBe(0);
  });
});

describe('packaging', () => {
  it.each(['account', 'billing'])('%s passes publint (exports, types, files)', async (slug) => {
    const { messages } = await publint({ pkgDir: join(built.out, slug), strict: true, level: 'suggestion' });
    expect(messages).toEqual([]);
  });
});
