import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../generators/execute/fast/build.js';
import { readCatalogueSources } from '../../../generators/load/index.js';
import { fixturePath, tempDir } from '../../helpers.js';
import { buildPackages } from './build-packages.js';

/**
 * Migrations written in YAML (issue 46), through the real build: the loader reads them, the build
 * verifies them, the package's upcast runs them. The small fixture's account.removed-v2 gets an upgrade.
 */
function catalogueWith(upgrade: string[]): { dir: string; line: number } {
  const dir = tempDir('eventry-migration-build-');
  cpSync(fixturePath('small'), dir, { recursive: true });
  const file = join(dir, 'groups', 'account.yaml');
  const lines = readFileSync(file, 'utf8').split('\n');
  const at = lines.indexOf('  account.removed-v2:');
  lines.splice(at + 1, 0, ...upgrade);
  writeFileSync(file, lines.join('\n'));
  return { dir, line: at + 2 };
}

const GOOD = [
  '    upgrade:',
  '      from: account.removed-v1',
  '      steps:',
  `        - set: {field: reason, cel: "'migrated ' + message.account_number"}`,
  '        - set: {field: changes, value: {}}',
];

describe('migrations through the build', () => {
  it('a verified upgrade builds, and the package upcasts with it', async () => {
    const { dir } = catalogueWith(GOOD);
    const built = await buildPackages(dir);
    const account = (await built.importGroup('account')) as unknown as {
      upcast(from: string, payload: unknown): unknown;
    };
    const v1 = { account_number: 'A-1', account_user_emails: [] };
    expect(account.upcast('account.removed-v1', v1)).toEqual({ ...v1, reason: 'migrated A-1', changes: {} });
  });

  it('an upgrade giving a bad date fails the build at its upgrade:, naming the field', async () => {
    const { dir, line } = catalogueWith([
      ...GOOD,
      '        - set: {field: opened_on, cel: "message.account_number"}',
    ]);
    const result = await buildCatalogue(readCatalogueSources(dir), join(dir, 'out'));
    expect(result.kind).toBe('emitter-failed');
    const message = result.kind === 'emitter-failed' ? String((result.error as Error).message) : '';
    expect(message).toMatch(
      new RegExp(
        `^groups/account\\.yaml:${line}:\\d+: error migration-unverified: .* refuses at \`opened_on\`: .*\\(invalid_format\\); shrunk counterexample`,
      ),
    );
  });
});
