import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupApi } from '../../../generators/runtime/runtime.js';
import { fixturePath, loadValid } from '../../helpers.js';
import { writeModelPackages } from './build-packages.js';

/**
 * ajv's code read a field up to three times (`required`, then the presence test and the value of
 * `properties`): a payload whose field is a getter ran it three times per validation, and a payload
 * in dictionary mode paid three hash lookups per field. The generated code reads each field once.
 */
const KEY = 'account.created-v1';
const model = loadValid(fixturePath('small'));

describe('a field of the payload is read once per validation', () => {
  let account: GroupApi<Record<string, unknown>>;
  beforeAll(async () => {
    const root = await writeModelPackages(structuredClone(model));
    account = await import(pathToFileURL(join(root, 'account', 'index.js')).href);
  }, 60_000);

  const counted = (value: unknown, extra: Record<string, unknown> = {}) => {
    const reads = { count: 0 };
    const payload = Object.defineProperty(
      { account_user_emails: ['a@example.com'], ...extra },
      'account_number',
      {
        enumerable: true,
        get() {
          reads.count += 1;
          return value;
        },
      },
    );
    return { payload, reads };
  };

  it.each([
    ['valid, strict', 'A1', {}, 'strict', true],
    ['valid, tolerant', 'A1', { added_later: 1 }, 'tolerant', true],
    ['of the wrong type', 12, {}, 'strict', false],
    ['with an undocumented field', 'A1', { added_later: 1 }, 'strict', false],
  ] as const)('%s', (_name, value, extra, mode, valid) => {
    const { payload, reads } = counted(value, extra);
    expect(account.validate(KEY, payload, { mode }).valid).toBe(valid);
    expect(reads.count).toBe(1);
  });

  it('a missing required field is reported with the others, in the order found', () => {
    const result = account.validate(KEY, { account_number: 1, extra: true });
    expect(result.valid ? [] : result.error.errors.map((item) => [item.code, item.attr])).toEqual([
      ['required', 'account_user_emails'],
      ['unknown_field', 'extra'],
      ['invalid_type', 'account_number'],
    ]);
  });
});
