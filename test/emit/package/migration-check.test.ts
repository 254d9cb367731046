import { describe, expect, it } from 'vitest';
import { emitGroupPackages } from '../../../generators/emit/package/index.js';
import {
  MIGRATION_RUNS,
  MigrationUnverified,
  verifyMigrations,
} from '../../../generators/emit/package/migration-check.js';
import type { Catalogue, Migration } from '../../../generators/model.js';
import {
  GOOD_DOWN,
  GOOD_UP,
  migration,
  set,
  setCel,
  smallModel,
  V1,
  V2,
  withMigration,
  withRule,
} from './migration-model.js';

/** The account group's migrations of `model`, verified as the build verifies them. */
function verify(model: Catalogue, upgrades: Migration[], downgrades: Migration[] = []) {
  const group = model.groups.find((one) => one.slug === 'account')!;
  return verifyMigrations(model, group, { upgrades, downgrades });
}

/** The error a failing verification rejects with. */
async function failure(model: Catalogue, upgrade: Migration): Promise<MigrationUnverified> {
  const error = await verify(model, [upgrade]).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(MigrationUnverified);
  return error as MigrationUnverified;
}

/** A shrunk v1 counterexample: required fields only, each as small as fast-check makes it. */
function expectSmall(counterexample: unknown): void {
  expect(Object.keys(counterexample as object).sort()).toEqual(['account_number', 'account_user_emails']);
  expect((counterexample as { account_user_emails: unknown[] }).account_user_emails).toEqual([]);
}

describe('migrations verified at build', () => {
  it('a good upgrade and downgrade pass, each on at least 200 payloads', async () => {
    const model = withMigration(smallModel(), GOOD_UP(), GOOD_DOWN());
    const verified = await verify(model, [GOOD_UP()], [GOOD_DOWN()]);
    expect(verified.map(({ direction, runs }) => [direction, runs])).toEqual([
      ['upgrade', MIGRATION_RUNS],
      ['downgrade', MIGRATION_RUNS],
    ]);
    expect(MIGRATION_RUNS).toBeGreaterThanOrEqual(200);
  });

  it('an upgrade that forgets a new required field fails, naming it, with a shrunk counterexample', async () => {
    const forgets = migration(V1, V2, [setCel('reason', "'migrated ' + message.account_number")], 31);
    const error = await failure(smallModel(), forgets);
    expect(error.attr).toBe('changes');
    expect(error.message).toMatch(
      /^groups\/account\.yaml:31:5: error migration-unverified: the upgrade from account\.removed-v1 to account\.removed-v2 gives a payload account\.removed-v2 refuses at `changes`: .* \(required\); shrunk counterexample .*: \{.*\}; migrated: \{.*\}\.$/,
    );
    expectSmall(error.counterexample);
    expect(error.message).toContain(JSON.stringify(error.counterexample));
  });

  it('an upgrade that sets a wrong type through CEL fails at that field', async () => {
    const wrongType = migration(V1, V2, [
      setCel('reason', 'size(message.account_user_emails)'),
      set('changes', {}),
    ]);
    const error = await failure(smallModel(), wrongType);
    expect(error.attr).toBe('reason');
    expect(error.message).toContain('(invalid_type)');
    expectSmall(error.counterexample);
    expect(error.outcome).toMatchObject({ migrated: { reason: 0, changes: {} } });
  });

  it('an upgrade that breaks a data rule of the target fails at the rule attr', async () => {
    const model = withRule(smallModel(), V2, {
      name: 'reason_is_short',
      expr: 'size(message.reason) <= 12',
      message: 'A reason is at most 12 characters.',
      attr: 'reason',
    });
    const error = await failure(model, GOOD_UP());
    expect(error.attr).toBe('reason');
    expect(error.message).toContain('A reason is at most 12 characters. (rule_violated)');
    expect(Object.keys(error.counterexample as object).sort()).toEqual([
      'account_number',
      'account_user_emails',
    ]);
    const migrated = (error.outcome as { migrated: { reason: string } }).migrated;
    expect(migrated.reason.length).toBeGreaterThan(12);
  });

  it('an upgrade whose CEL gives a string of the wrong format fails at that field', async () => {
    const wrongFormat = migration(V1, V2, [
      setCel('opened_on', 'message.account_number'),
      setCel('reason', "'r'"),
      set('changes', {}),
    ]);
    const error = await failure(smallModel(), wrongFormat);
    expect(error.attr).toBe('opened_on');
    expect(error.message).toContain('(invalid_format)');
    expectSmall(error.counterexample);
  });

  it('a migration that throws on a valid payload fails the build', async () => {
    const throws = migration(V1, V2, [
      setCel('reason', "1 / size(message.account_user_emails) > 0 ? 'some' : 'none'"),
      set('changes', {}),
    ]);
    const error = await failure(smallModel(), throws);
    expect(error.attr).toBeUndefined();
    expect(error.message).toMatch(/error migration-unverified: .* throws \(.+\) on a valid payload/);
    expectSmall(error.counterexample);
  });

  it('the group packages refuse to build with an unverified migration, located at `upgrade:`', async () => {
    const forgets = migration(V1, V2, [set('reason', 'r')], 33);
    const model = withMigration(smallModel(), forgets);
    await expect(emitGroupPackages(model, { versions: {} })).rejects.toThrow(
      /^groups\/account\.yaml:33:5: error migration-unverified: .*refuses at `changes`/,
    );
  });
});
