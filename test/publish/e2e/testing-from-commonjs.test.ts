import { spawnSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackages, buildPackages } from '../../emit/package/build-packages.js';
import { fixturePath, REPO, typeCheckProject } from '../../helpers.js';

/**
 * A CommonJS consumer (`"type": "commonjs"`, tsc with module nodenext) and a group package's
 * `./testing` entry, which waits for fast-check at its top level and so can never be `require`d: the
 * static `require` is a type error, where it used to type-check and fail at run time with
 * `ERR_REQUIRE_ASYNC_MODULE`; the main entry still loads with `require`, and `./testing` with
 * `await import()`, as the README says.
 */
let built: BuiltPackages;
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  writeFileSync(join(built.root, 'package.json'), '{ "private": true, "type": "commonjs" }\n');
  // The testing entry's types name fast-check (an optional peer dependency), as a project using it has.
  symlinkSync(
    join(REPO, 'node_modules', 'fast-check'),
    join(built.root, 'node_modules', 'fast-check'),
    'dir',
  );
}, 60_000);

const PACKAGE = '@fixture-events/account';

function node(file: string, source: string) {
  writeFileSync(join(built.root, file), source);
  const result = spawnSync(process.execPath, [file], { cwd: built.root, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('a CommonJS project and the testing entry point', () => {
  it('gets a type error for a static require of ./testing, and none for the main entry or a dynamic import', () => {
    writeFileSync(
      join(built.root, 'consumer.ts'),
      `import { validate } from '${PACKAGE}';
import { fake } from '${PACKAGE}/testing';
export async function later(): Promise<boolean> {
  const testing = await import('${PACKAGE}/testing');
  return validate('account.created-v1', testing.fake('account.created-v1')).valid;
}
export const payload: unknown = fake('account.created-v1');
`,
    );
    const checked = typeCheckProject(built.root, ['consumer.ts']);
    expect(checked.errors, checked.output).toEqual(['TS2307 (line 2)']);
    expect(checked.output).toContain(`'${PACKAGE}/testing'`);
  });

  it('fails a static require of ./testing at once, and loads it with await import()', () => {
    const required = node('require-testing.cjs', `require('${PACKAGE}/testing');\n`);
    expect(required.status).not.toBe(0);
    expect(required.stderr).not.toContain('ERR_REQUIRE_ASYNC_MODULE');
    expect(required.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');

    const imported = node(
      'import-testing.cjs',
      `const { validate } = require('${PACKAGE}');
import('${PACKAGE}/testing').then(({ fake }) => {
  const payload = fake('account.created-v1', { seed: 1 });
  console.log(JSON.stringify(validate('account.created-v1', payload)));
});
`,
    );
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout)).toEqual({ valid: true });
  });
});
