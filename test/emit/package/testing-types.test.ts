import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePath, REPO, typeCheckProject } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/**
 * The `testing` entry point's types, from a consumer's side (tsc on a small strict project, declaration
 * files checked): `fake` is typed as the event's interface, `arbitrary` as a fast-check Arbitrary of it,
 * and a wrong key is a type error.
 */
let built: BuiltPackages;
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
  writeFileSync(join(built.root, 'package.json'), '{ "type": "module", "private": true }\n');
  symlinkSync(
    join(REPO, 'node_modules', 'fast-check'),
    join(built.root, 'node_modules', 'fast-check'),
    'dir',
  );
});

function typeCheck(source: string): { errors: string[]; output: string } {
  writeFileSync(join(built.root, 'consumer.ts'), source);
  return typeCheckProject(built.root, ['consumer.ts']);
}

const HEADER = `import * as fc from 'fast-check';
import { arbitrary, fake, invalid, type InvalidPayload } from '@fixture-events/account/testing';
import type { AccountCreatedV1, AccountRemovedV2 } from '@fixture-events/account';
`;

describe('the testing entry point type-checks in a consumer project', () => {
  it('types fake as the event interface, arbitrary as an Arbitrary of it, invalid as its items', () => {
    const { errors, output } = typeCheck(`${HEADER}
const created: AccountCreatedV1 = fake('account.created-v1', { seed: 1, variant: 'full' });
const number: string = fake('account.removed-v2').reason;
const arb: fc.Arbitrary<AccountRemovedV2> = arbitrary('account.removed-v2', { maxItems: 2 });
fc.assert(fc.property(arbitrary('account.created-v1'), (payload) => typeof payload.account_number === 'string'));
const bad: InvalidPayload[] = invalid('account.created-v1');
const code: string = bad[0]!.error.code;
void created, number, arb, code;
`);
    expect(errors, output).toEqual([]);
  });

  it.each([
    ['an event key the package does not have', `fake('account.created-v9');`, 'TS2345 (line 4)'],
    [
      'a fake read as another event',
      `const p: AccountRemovedV2 = fake('account.created-v1');`,
      'TS2739 (line 4)',
    ],
    ['a field the event does not have', `fake('account.created-v1').reason;`, 'TS2339 (line 4)'],
    ['an unknown variant', `fake('account.created-v1', { variant: 'huge' });`, 'TS2322 (line 4)'],
  ])('fails on %s', (_name, line, want) => {
    const { errors, output } = typeCheck(`${HEADER}${line}\n`);
    expect(errors, output).toEqual([want]);
  });
});
