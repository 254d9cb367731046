import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, typeCheckProject } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/**
 * `upcast` and `downcast` as a consumer's TypeScript sees them: the payload type of `fromKey` in, of
 * `toKey` (or the newest version of its type) out; `toKey` only a version of the same type.
 */
let built: BuiltPackages;
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  writeFileSync(join(built.root, 'package.json'), '{ "type": "module", "private": true }\n');
}, 120_000);

function typeCheck(source: string): { errors: string[]; output: string } {
  writeFileSync(join(built.root, 'consumer.ts'), source);
  return typeCheckProject(built.root, ['consumer.ts']);
}

const header = `import { downcast, MigrationError, upcast, type AccountRemovedV1, type AccountRemovedV2 } from '@fixture-events/account';\ndeclare const v1: AccountRemovedV1;\ndeclare const v2: AccountRemovedV2;\n`;

describe('upcast and downcast types', () => {
  it('type the result by the target key, the newest by default', () => {
    const { errors, output } = typeCheck(`${header}
const newest: AccountRemovedV2 = upcast('account.removed-v1', v1);
const asked: AccountRemovedV2 = upcast('account.removed-v1', v1, 'account.removed-v2');
const same: AccountRemovedV1 = upcast('account.removed-v1', v1, 'account.removed-v1');
const back: AccountRemovedV1 = downcast('account.removed-v2', v2, 'account.removed-v1');
const reason: string = newest.reason;
try { upcast('account.removed-v1', v1); } catch (error) {
  if (error instanceof MigrationError) { const code: 'unknown_event' | 'other_event_type' | 'no_migration_path' | 'payload_not_object' = error.code; void code; }
}
void asked, same, back, reason;
`);
    expect(errors, output).toEqual([]);
  });

  it.each([
    [
      'a v1 result read as v2',
      `const wrong: AccountRemovedV2 = upcast('account.removed-v1', v1, 'account.removed-v1');\n`,
      'TS2739',
    ],
    ['a target of another type', `upcast('account.removed-v1', v1, 'account.created-v1');\n`, 'TS2345'],
    ['a payload of another version', `upcast('account.removed-v2', v1);\n`, 'TS2739'],
    ['an unknown key', `upcast('account.removed-v9', v1);\n`, 'TS2345'],
    ['a downcast without a target', `downcast('account.removed-v2', v2);\n`, 'TS2554'],
  ])('refuses %s', (_, line, code) => {
    const { errors, output } = typeCheck(`${header}${line}`);
    expect(errors, output).toEqual([`${code} (line 4)`]);
  });
});
