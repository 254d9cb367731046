import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { groupSourceHash } from '../../../generators/emit/package/package-json.js';
import type { Catalogue } from '../../../generators/model.js';
import type { MigrationError } from '../../../generators/runtime/runtime.js';
import { writeModelPackages } from './build-packages.js';
import {
  drop,
  GOOD_DOWN,
  GOOD_UP,
  migration,
  rename,
  setCel,
  smallModel,
  V1,
  V2,
  V3,
  withMigration,
  withV3,
} from './migration-model.js';

/** What a group package's index exports for migrations. */
interface Migrations {
  upcast(from: string, payload: unknown, to?: string): Record<string, unknown>;
  downcast(from: string, payload: unknown, to?: string): Record<string, unknown>;
  validate(key: string, payload: unknown): { valid: boolean };
}

/** Deep-freezes a value, so that a migration writing into its input throws. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) frozen(item);
    Object.freeze(value);
  }
  return value;
}

const V1_PAYLOAD = {
  account_number: 'A-1234',
  account_user_emails: ['a@example.com'],
  status: 'closed',
  tags: [[1, 2]],
};

/** The account group of the small fixture with v1 -> v2 -> v3 (each with an upgrade, v2 with a downgrade). */
let root: string;
let account: Migrations;
beforeAll(async () => {
  const model = withV3(withMigration(smallModel(), GOOD_UP(), GOOD_DOWN()));
  withMigration(
    model,
    migration(V2, V3, [setCel('removed_by', "'system:' + message.reason"), rename('changes', 'changes')]),
    migration(V3, V2, [drop('removed_by')]),
  );
  root = await writeModelPackages(model);
  account = await import(pathToFileURL(join(root, 'account', 'index.js')).href);
}, 120_000);

describe('upcast of a group package', () => {
  it('chains the upgrades to the newest version by default, the input untouched', () => {
    const input = frozen(structuredClone(V1_PAYLOAD));
    const v3 = account.upcast(V1, input);
    expect(v3).toEqual({
      ...V1_PAYLOAD,
      reason: 'migrated A-1234',
      changes: {},
      removed_by: 'system:migrated A-1234',
    });
    expect(account.validate(V3, v3)).toEqual({ valid: true });
    expect(input).toEqual(V1_PAYLOAD);
  });

  it('stops at the version asked for', () => {
    const v2 = account.upcast(V1, frozen(structuredClone(V1_PAYLOAD)), V2);
    expect(v2).toEqual({ ...V1_PAYLOAD, reason: 'migrated A-1234', changes: {} });
    expect(account.validate(V2, v2)).toEqual({ valid: true });
  });

  it('gives a new payload equal to the input for its own version', () => {
    const input = frozen(structuredClone(V1_PAYLOAD));
    const same = account.upcast(V1, input, V1);
    expect(same).toEqual(V1_PAYLOAD);
    expect(same).not.toBe(input);
    expect(same.tags).not.toBe(input.tags);
  });
});

describe('downcast of a group package', () => {
  it('chains the downgrades to the version asked for', () => {
    const v3 = frozen(account.upcast(V1, structuredClone(V1_PAYLOAD)));
    expect(account.downcast(V3, v3, V1)).toEqual(V1_PAYLOAD);
    expect(account.downcast(V3, v3, V2)).toEqual({ ...V1_PAYLOAD, reason: 'migrated A-1234', changes: {} });
  });
});

/** The error a call throws. */
function thrown(call: () => unknown): MigrationError {
  try {
    call();
  } catch (error) {
    return error as MigrationError;
  }
  throw new Error('expected the call to throw');
}

describe('no path between two keys', () => {
  it.each([
    [
      'an unknown key',
      () => account.upcast('account.removed-v9', {}, V2),
      'unknown_event',
      ['account.removed-v9', V2],
    ],
    [
      'an unknown target',
      () => account.upcast(V1, {}, 'account.removed-v9'),
      'unknown_event',
      [V1, 'account.removed-v9'],
    ],
    [
      'a target of another type',
      () => account.upcast(V1, {}, 'account.created-v1'),
      'other_event_type',
      [V1, 'account.created-v1'],
    ],
    ['an upcast to an earlier version', () => account.upcast(V3, {}, V1), 'no_migration_path', [V3, V1]],
    ['a downcast to a later version', () => account.downcast(V1, {}, V2), 'no_migration_path', [V1, V2]],
    ['a downcast without a target', () => account.downcast(V2, {}), 'no_migration_path', [V2]],
    ['a payload that is not an object', () => account.upcast(V1, [1], V2), 'payload_not_object', [V1, V2]],
  ] as const)('%s throws a MigrationError naming both keys', (_, call, code, keys) => {
    const error = thrown(call);
    expect(error.name).toBe('MigrationError');
    expect(error.code).toBe(code);
    for (const key of keys) expect(error.message).toContain(`\`${key}\``);
  });

  it('a group without migrations throws for two versions and copies for one', () => {
    const model = smallModel();
    const payload = { support_user_id: 'u1' };
    return writeModelPackages(model).then(async (bare) => {
      const plain: Migrations = await import(pathToFileURL(join(bare, 'account', 'index.js')).href);
      const error = thrown(() => plain.upcast(V1, V1_PAYLOAD));
      expect([error.code, error.message]).toEqual([
        'no_migration_path',
        expect.stringMatching(
          /`account\.removed-v1` to `account\.removed-v2`: `account\.removed-v2` declares no upgrade/,
        ),
      ]);
      const down = thrown(() => plain.downcast(V2, { reason: 'r', changes: {} }, V1));
      expect([down.code, down.message]).toEqual([
        'no_migration_path',
        expect.stringMatching(
          /`account\.removed-v2` to `account\.removed-v1`: `account\.removed-v2` declares no downgrade/,
        ),
      ]);
      expect(plain.upcast('lifecycle.support-site.sale-1.0.0', payload)).toEqual(payload);
      expect(existsSync(join(bare, 'account', 'migrations.js'))).toBe(false);
    });
  });
});

describe('what the package ships', () => {
  it('puts the compiled steps in migrations.js, imported by the index only', () => {
    const code = readFileSync(join(root, 'account', 'migrations.js'), 'utf8');
    expect(code).toContain('export const up');
    expect(code).toContain('Each was verified at build: 200 payloads of its source');
    expect(code).not.toMatch(/jsonata|@bufbuild|\beval\(|new Function/);
    expect(readFileSync(join(root, 'account', 'index.js'), 'utf8')).toContain('./migrations.js');
    const entry = readFileSync(join(root, 'account', 'events', `${V2}.js`), 'utf8');
    expect(entry).not.toMatch(/migration|upcast/i);
    expect(existsSync(join(root, 'billing', 'migrations.js'))).toBe(false);
  });

  it('shows upcast in the README of a group with migrations only', () => {
    const readme = readFileSync(join(root, 'account', 'README.md'), 'utf8');
    expect(readme).toContain('### Versions: upcast and downcast');
    expect(readme).toContain(`upcast('${V1}', payload); // a ${V3} payload (the newest version)`);
    expect(readFileSync(join(root, 'billing', 'README.md'), 'utf8')).not.toContain('upcast');
  });

  it('publishes migrations.js, and counts the migrations in the source hash', () => {
    const manifest = (slug: string) =>
      JSON.parse(readFileSync(join(root, slug, 'package.json'), 'utf8')) as { files: string[] };
    expect(manifest('account').files).toContain('migrations.js');
    expect(manifest('billing').files).not.toContain('migrations.js');
    const plain = smallModel();
    const group = (model: Catalogue) => model.groups.find((one) => one.slug === 'account')!;
    const migrated = withMigration(smallModel(), GOOD_UP());
    expect(groupSourceHash(migrated, group(migrated))).not.toBe(groupSourceHash(plain, group(plain)));
    const moved = withMigration(smallModel(), {
      ...GOOD_UP(),
      source: { file: 'groups/account.yaml', line: 99, column: 1 },
    });
    expect(groupSourceHash(moved, group(moved))).toBe(groupSourceHash(migrated, group(migrated)));
  });
});
