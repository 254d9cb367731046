import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BuiltPackages, buildPackages } from '../../emit/package/build-packages.js';
import { fixturePath, REPO } from '../../helpers.js';

/**
 * The matchers of two group packages type-check together, in a strict vitest project and a strict jest
 * project, with the one declaration the package README shows. Each package used to declare its own
 * `EventAssertions` with its own keys: extending both failed (TS2320, "cannot simultaneously extend"),
 * extending one refused the other package's keys.
 */

let built: BuiltPackages;
/** The `declare module` line of the README's matchers section (vitest), as users copy it. */
let vitestDeclaration: string;
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  for (const name of ['vitest', '@jest', 'expect']) {
    symlinkSync(join(REPO, 'node_modules', name), join(built.root, 'node_modules', name), 'dir');
  }
  writeFileSync(join(built.root, 'package.json'), '{ "type": "module", "private": true }\n');
  const readme = readFileSync(join(built.out, 'account', 'README.md'), 'utf8');
  vitestDeclaration = /^declare module 'vitest' \{\n.*\n\}$/m.exec(readme)?.[0] ?? '';
}, 120_000);

/** Type-checks one file in its own strict project; returns tsc's output and exit code. */
function typeCheck(name: string, source: string, skipLibCheck: boolean) {
  const dir = join(built.root, `${name}-${skipLibCheck ? 'skip' : 'full'}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.test.ts`), source);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        target: 'es2022',
        noEmit: true,
        skipLibCheck,
        types: [],
      },
      include: ['*.ts'],
    }),
  );
  const result = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', dir], {
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const USES = `
it('payloads of both groups', () => {
  expect({ account_number: 'A', account_user_emails: [] }).toBeValidEvent('account.created-v1');
  expect({ mprn: 'M' }).toBeValidEvent('meterpoint.gas.partial-v1', { mode: 'tolerant' });
  // @ts-expect-error: not an event key of any group package imported
  expect({}).toBeValidEvent('no.such-v1');
});
`;

describe('matchers of two group packages, typed together', () => {
  it('the README shows one declaration for every group package', () => {
    expect(vitestDeclaration).toBe(
      "declare module 'vitest' {\n  interface Matchers<T = any> extends EventAssertions<T> {}\n}",
    );
  });

  for (const skipLibCheck of [false, true]) {
    it(`a strict vitest project (skipLibCheck ${skipLibCheck})`, () => {
      const { status, output } = typeCheck(
        'vitest',
        `import { expect, it } from 'vitest';
import { type EventAssertions, matchers as account } from '@fixture-events/account/matchers';
import { matchers as billing } from '@fixture-events/billing/matchers';

expect.extend(account);
expect.extend(billing);
${vitestDeclaration}
${USES}`,
        skipLibCheck,
      );
      expect(output).toBe('');
      expect(status).toBe(0);
    });

    it(`a strict jest project with @jest/globals (skipLibCheck ${skipLibCheck})`, () => {
      const { status, output } = typeCheck(
        'jest',
        `import { expect, it } from '@jest/globals';
import { type EventAssertions, matchers as account } from '@fixture-events/account/matchers';
import { matchers as billing } from '@fixture-events/billing/matchers';

expect.extend(account);
expect.extend(billing);
declare module 'expect' {
  interface Matchers<R> extends EventAssertions<R> {}
}
${USES}`,
        skipLibCheck,
      );
      expect(output).toBe('');
      expect(status).toBe(0);
    });
  }
});
