import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileEventValidators } from '../../../../generators/emit/package/validators.js';
import type { GroupApi } from '../../../../generators/runtime/runtime.js';
import { standaloneEventSchema } from '../../../../generators/schema/json-schema.js';
import { fixturePath, loadValid } from '../../../helpers.js';
import { writeModelPackages } from './build-packages.js';

/**
 * Each event ships one first-error validator for both modes (the walk over undocumented keys is
 * switched by the caller's `this.tolerant`), so a build compiles each event twice, not three times,
 * and a package holds the code once. The mode belongs to each call: a payload getter that validates
 * another payload in the other mode does not change the mode of the run that reads it.
 */
const KEY = 'account.created-v1';
const model = loadValid(fixturePath('small'));
const valid = { account_number: 'A1', account_user_emails: ['a@example.com'] };
const undocumented = { ...valid, added_later: true };

type Fast = (this: { tolerant: boolean }, payload: unknown) => boolean;

describe('one first-error validator for both modes', () => {
  it('is one exported function whose `this.tolerant` allows undocumented fields', () => {
    const code = compileEventValidators(KEY, standaloneEventSchema(model, KEY, 'closed'));
    const exports: { fast?: Fast; strict?: unknown; tolerant?: unknown } = {};
    new Function('exports', 'fullFormats', code.fast)(exports, fullFormats);
    expect(Object.keys(exports)).toEqual(['fast']);
    const fast = exports.fast!;
    expect(fast.call({ tolerant: false }, valid)).toBe(true);
    expect(fast.call({ tolerant: false }, undocumented)).toBe(false);
    expect(fast.call({ tolerant: true }, undocumented)).toBe(true);
    expect(fast.call({ tolerant: true }, { ...undocumented, account_number: 1 })).toBe(false);
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
