import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackages, buildPackages } from '../../emit/package/build-packages.js';
import { fixturePath, REPO } from '../../helpers.js';

/**
 * A consumer project in jest 29's default CommonJS mode (no `"type": "module"`, no transform config)
 * uses a generated package the way its README says: the one-line setup
 * (`NODE_OPTIONS=--experimental-vm-modules`) and `await import()` of the matchers, of two packages.
 */
let built: BuiltPackages;
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  writeFileSync(join(built.root, 'package.json'), '{ "private": true }\n');
}, 60_000);

function runJest(testSource: string) {
  writeFileSync(join(built.root, 'producer.test.js'), testSource);
  const result = spawnSync(
    join(REPO, 'node_modules', '.bin', 'jest'),
    ['--rootDir', built.root, '--watchman=false', '--ci', 'producer.test.js'],
    {
      cwd: built.root,
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules', NO_COLOR: '1' },
    },
  );
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('jest 29 in CommonJS mode', () => {
  it('runs the README setup line against a generated package', () => {
    const readme = readFileSync(join(built.out, 'account', 'README.md'), 'utf8');
    const setup = readme.match(/^beforeAll\(.*\);$/m)?.[0];
    expect(setup).toBeDefined();
    const { status, output } = runJest(`
${setup}
beforeAll(async () => expect.extend((await import('@fixture-events/billing/matchers')).matchers));
test('valid payloads of two groups', () => {
  expect({ account_number: 'A', account_user_emails: [] }).toBeValidEvent('account.created-v1');
  expect({ mprn: 'M' }).toBeValidEvent('meterpoint.gas.partial-v1');
});
test('an invalid payload fails with its problems', () => {
  expect(() => expect({ account_number: 5 }).toBeValidEvent('account.created-v1')).toThrow(
    'account_number: \`account_number\` must be a string, not an integer.',
  );
});
`);
    expect(output).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(status, output).toBe(0);
  }, 120_000);

  it('fails a test whose payload is invalid (the matcher really runs)', () => {
    const { status, output } = runJest(`
beforeAll(async () => expect.extend((await import('@fixture-events/account/matchers')).matchers));
test('invalid', () => {
  expect({}).toBeValidEvent('account.created-v1');
});
`);
    expect(status).not.toBe(0);
    expect(output).toContain('account_number: `account_number` is required but missing.');
  }, 120_000);
});
