import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../../generators/model.js';
import type { GroupApi } from '../../../generators/runtime/runtime.js';
import { fixturePath, loadValid } from '../../helpers.js';
import { writeModelPackages } from './build-packages.js';

/** An enum of 20 000 values builds (ajv's inline comparisons stop building long before) and checks. */
const KEY = 'lifecycle.support-site.sale-1.0.0';
const values = Array.from({ length: 20_000 }, (_, i) => `value-${i}`);

let account: GroupApi<Record<string, unknown>>;
beforeAll(async () => {
  const model: Catalogue = structuredClone(loadValid(fixturePath('small')));
  const event = model.events[KEY]!;
  const source = event.fields[0]!.source;
  event.fields.push({ name: 'code', type: { kind: 'string', enum: values }, required: true, source });
  const root = await writeModelPackages(model);
  account = await import(pathToFileURL(join(root, 'account', 'index.js')).href);
}, 120_000);

describe('a very large enum', () => {
  it('accepts its values and rejects others', () => {
    expect(account.validate(KEY, { support_user_id: 'u', code: 'value-19999' })).toEqual({ valid: true });
    expect(account.validate(KEY, { support_user_id: 'u', code: 'value-0' })).toEqual({ valid: true });
    const result = account.validate(KEY, { support_user_id: 'u', code: 'value-20000' });
    expect(result.valid ? [] : result.error.errors.map((e) => [e.code, e.attr])).toEqual([
      ['invalid_value', 'code'],
    ]);
  });
});
