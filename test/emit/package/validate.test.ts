import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupApi, ValidateOptions } from '../../../generators/runtime/runtime.js';
import { fixturePath } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/**
 * The generated validators and run time, as a consumer of the small fixture's packages sees them: the
 * platform's error body, one item per problem, stable codes and dot paths, both modes.
 */
let built: BuiltPackages;
const groups: Record<string, GroupApi<Record<string, unknown>>> = {};
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  groups.account = await built.importGroup('account');
  groups.billing = await built.importGroup('billing');
});

const slugOf = (key: string) => built.catalogue.events[key]!.group;
const check = (key: string, payload: unknown, options?: ValidateOptions) =>
  groups[slugOf(key)]!.validate(key, payload, options);
/** `[code, attr]` of each error item, in order; `[]` when valid. */
const problems = (key: string, payload: unknown, options?: ValidateOptions) => {
  const result = check(key, payload, options);
  return result.valid ? [] : result.error.errors.map((item) => [item.code, item.attr]);
};

const account = { account_number: 'A-1', account_user_emails: ['a@example.com'] };
const period = { start: '2024-01-01T00:00:00Z', end: '2024-02-01T00:00:00Z' };
const version = (traits: unknown[]) => ({ identifier: 'v', effective_period: period, traits });
const strict: ValidateOptions = { mode: 'strict' };
const tolerant: ValidateOptions = { mode: 'tolerant' };

type Case = [string, { key: string; payload: unknown; options?: ValidateOptions; want: string[][] }];
const cases: Case[] = [
  ['a minimal payload', { key: 'account.created-v1', payload: account, want: [] }],
  [
    'a missing nested required field: attr is the missing field itself',
    {
      key: 'billing.ledger.entry_posted-v1',
      payload: { ledger: { account: {}, number: 'L-1' } },
      want: [['required', 'ledger.account.number']],
    },
  ],
  [
    'an undocumented field in an array item (strict)',
    {
      key: 'contract-groups.version-created-v1',
      payload: {
        contract_group_identifier: 'g',
        created_versions: [version([]), version([{ identifier: 't', data: {}, extra: 1 }])],
      },
      want: [['unknown_field', 'created_versions.1.traits.0.extra']],
    },
  ],
  [
    'an undocumented field in an array item (tolerant)',
    {
      key: 'contract-groups.version-created-v1',
      payload: {
        contract_group_identifier: 'g',
        created_versions: [version([{ identifier: 't', data: {}, extra: 1 }])],
        more: {},
      },
      options: tolerant,
      want: [],
    },
  ],
  [
    'tolerant mode still reports everything else, and no undocumented field',
    {
      key: 'contract-groups.version-created-v1',
      payload: {
        contract_group_identifier: 1,
        created_versions: [version([{ data: 'x', extra: 1 }])],
        more: {},
      },
      options: tolerant,
      want: [
        ['invalid_type', 'contract_group_identifier'],
        ['required', 'created_versions.0.traits.0.identifier'],
        ['invalid_type', 'created_versions.0.traits.0.data'],
      ],
    },
  ],
  [
    'a fraction for an integer',
    {
      key: 'ink.conversation.closed-v1',
      payload: { conversation_id: 1.5, account_number: 'A', closed_at: 'x' },
      want: [['invalid_type', 'conversation_id']],
    },
  ],
  [
    'null for an optional field',
    {
      key: 'account.created-v1',
      payload: { ...account, is_imported: null },
      want: [['invalid_type', 'is_imported']],
    },
  ],
  [
    'a date that is not one',
    {
      key: 'account.created-v1',
      payload: { ...account, opened_on: '2024-13-45' },
      want: [['invalid_format', 'opened_on']],
    },
  ],
  [
    'a date-time that is not one, deep down',
    {
      key: 'contract-groups.version-created-v1',
      payload: {
        contract_group_identifier: 'g',
        created_versions: [{ ...version([]), effective_period: { ...period, end: 'tomorrow' } }],
      },
      want: [['invalid_format', 'created_versions.0.effective_period.end']],
    },
  ],
  [
    'a value outside the enum',
    {
      key: 'account.created-v1',
      payload: { ...account, status: 'open' },
      want: [['invalid_value', 'status']],
    },
  ],
  [
    'a wrong type for an enum field is one problem',
    { key: 'account.created-v1', payload: { ...account, status: 5 }, want: [['invalid_type', 'status']] },
  ],
  [
    'indexes of nested arrays',
    {
      key: 'account.created-v1',
      payload: { ...account, tags: [[1], [2, 'x']] },
      want: [['invalid_type', 'tags.1.1']],
    },
  ],
  ['an array as payload', { key: 'account.created-v1', payload: [], want: [['invalid_type', '']] }],
  ['null as payload', { key: 'account.created-v1', payload: null, want: [['invalid_type', '']] }],
  ['undefined as payload', { key: 'account.created-v1', payload: undefined, want: [['invalid_type', '']] }],
  [
    'every problem, not only the first',
    {
      key: 'account.removed-v2',
      payload: { account_number: 7, status: 'gone', tags: 'x', opened_on: 'today', extra: true },
      want: [
        ['required', 'account_user_emails'],
        ['required', 'reason'],
        ['required', 'changes'],
        ['unknown_field', 'extra'],
        ['invalid_type', 'account_number'],
        ['invalid_value', 'status'],
        ['invalid_format', 'opened_on'],
        ['invalid_type', 'tags'],
      ],
    },
  ],
  [
    'a free object accepts any keys in strict mode',
    {
      key: 'account.removed-v2',
      payload: { ...account, reason: 'r', changes: { any: { deep: [1, null] } } },
      options: strict,
      want: [],
    },
  ],
  [
    'a free object must still be an object',
    {
      key: 'account.removed-v2',
      payload: { ...account, reason: 'r', changes: [] },
      want: [['invalid_type', 'changes']],
    },
  ],
  [
    'the partial event accepts unknown fields in strict mode',
    { key: 'meterpoint.gas.partial-v1', payload: { mprn: 'M', other: { x: 1 } }, options: strict, want: [] },
  ],
  [
    'the partial event accepts unknown fields in tolerant mode',
    { key: 'meterpoint.gas.partial-v1', payload: { mprn: 'M', other: 1 }, options: tolerant, want: [] },
  ],
  [
    'the partial event still requires its listed fields',
    { key: 'meterpoint.gas.partial-v1', payload: { other: 1 }, want: [['required', 'mprn']] },
  ],
];

describe('validate(key, payload, options)', () => {
  it.each(cases)('%s', (_name, { key, payload, options, want }) => {
    expect(problems(key, payload, options)).toEqual(want);
  });

  it.each(cases)('%s: the per-event entry point agrees', async (_name, { key, payload, options }) => {
    const event = await built.importEvent(slugOf(key), key);
    expect(event.key).toBe(key);
    expect(event.validate(payload, options)).toEqual(check(key, payload, options));
  });

  it('returns exactly the platform 400 body', () => {
    const result = check('account.created-v1', { ...account, is_imported: null, status: 'x' });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(Object.keys(result.error)).toEqual(['detail', 'code', 'errors']);
    expect(result.error.code).toBe('event_failed_validation');
    expect(result.error.detail).toBe('The payload is not a valid `account.created-v1` event: 2 problems.');
    expect(result.error.errors).toEqual([
      {
        detail:
          '`is_imported` must be a boolean, not null; null is never a value here: a required field needs a boolean, an optional field with no value is left out.',
        code: 'invalid_type',
        attr: 'is_imported',
      },
      { detail: '`status` must be one of "active", "closed".', code: 'invalid_value', attr: 'status' },
    ]);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('a null in a required field is not told to leave the field out', () => {
    const result = check('account.created-v1', { ...account, account_number: null });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.error.errors).toHaveLength(1);
    const [item] = result.error.errors;
    expect(item).toMatchObject({ code: 'invalid_type', attr: 'account_number' });
    expect(item!.detail).toMatch(/not null/);
    expect(item!.detail).toMatch(/a required field needs a string/);
    expect(item!.detail).not.toMatch(/^[^:]*; leave out/);
  });

  it('says `unknown_event` for a key the package does not have', () => {
    expect(groups.account!.validate('account.created-v9', account)).toEqual({
      valid: false,
      error: {
        detail:
          '`account.created-v9` is not an event of @fixture-events/account. Did you mean `account.created-v1`?',
        code: 'unknown_event',
        errors: [],
      },
    });
    expect(groups.account!.validate('billing.ledger.entry_posted-v1', {}).valid).toBe(false);
    expect(groups.account!.isEvent('nope' as never, account)).toBe(false);
  });

  it('strict is the default mode', () => {
    const payload = { ...account, extra: 1 };
    expect(problems('account.created-v1', payload)).toEqual([['unknown_field', 'extra']]);
    expect(problems('account.created-v1', payload, {})).toEqual([['unknown_field', 'extra']]);
    expect(problems('account.created-v1', payload, tolerant)).toEqual([]);
  });
});

describe('isEvent and assertEvent', () => {
  it('isEvent says whether the payload is valid, in the mode asked', () => {
    expect(groups.account!.isEvent('account.created-v1', account)).toBe(true);
    expect(groups.account!.isEvent('account.created-v1', { ...account, x: 1 })).toBe(false);
    expect(groups.account!.isEvent('account.created-v1', { ...account, x: 1 }, tolerant)).toBe(true);
  });

  it('assertEvent throws an EventValidationError carrying the 400 body', async () => {
    const { EventValidationError } = (await import(`${built.out}/account/index.js`)) as {
      EventValidationError: new (...args: never[]) => Error;
    };
    const payload = { account_number: 1 };
    // An assertion signature is callable only through a name declared with its type.
    const accountGroup: GroupApi<Record<string, unknown>> = groups.account!;
    expect(() => accountGroup.assertEvent('account.created-v1', account)).not.toThrow();
    let thrown: unknown;
    try {
      accountGroup.assertEvent('account.created-v1', payload);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EventValidationError);
    expect(thrown).toBeInstanceOf(Error);
    const expected = check('account.created-v1', payload);
    expect(expected.valid).toBe(false);
    if (expected.valid) return;
    expect((thrown as { body: unknown }).body).toEqual(expected.error);
    expect((thrown as Error).message).toBe(expected.error.detail);
    expect(() => groups.account!.assertEvent('nope' as never, account)).toThrow(/not an event of/);
  });
});
