import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { beforeAll, describe, expect, it } from 'vitest';
import { openEventSchema } from '../../../generators/emit/package/validators.js';
import { standaloneEventSchema } from '../../../generators/schema/json-schema.js';
import type { ChildArguments } from '../../../scripts/bench/instructions-child.js';
import { type BuiltPackages, buildPackages } from '../../emit/package/build-packages.js';
import { compiledToolkitPath, fixturePath } from '../../helpers.js';

/**
 * The child process of the instructions bench (`npm run bench -- instructions`), run here without
 * valgrind on the small fixture's packages: each contender validates the row's payloads and the
 * child says so, with a failing status, when a contender's verdict is not the row's. `npm run bench`
 * is not part of `npm test`; this keeps its harness from breaking unnoticed.
 */
const CHILD = compiledToolkitPath('scripts/bench/instructions-child.js');
const KEY = 'account.created-v1';
let built: BuiltPackages;

beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
}, 60_000);

function runChild(args: Omit<ChildArguments, 'out' | 'slug' | 'key' | 'schemaFile' | 'calls'>) {
  const schema =
    args.mode === 'strict'
      ? standaloneEventSchema(built.catalogue, KEY, 'closed')
      : openEventSchema(built.catalogue, KEY);
  const schemaFile = join(built.root, `${args.contender}-${args.mode}.schema`);
  writeFileSync(schemaFile, serialize(schema));
  const file = join(built.root, `${args.contender}-${args.mode}.json`);
  const full: ChildArguments = {
    ...args,
    out: built.out,
    slug: 'account',
    key: KEY,
    schemaFile,
    calls: 1000,
  };
  writeFileSync(file, JSON.stringify(full));
  return spawnSync(process.execPath, [CHILD, file], { encoding: 'utf8' });
}

const valid = JSON.stringify({ account_number: 'A-1', account_user_emails: ['a@example.com'] });
const undocumented = JSON.stringify({ account_number: 'A-1', account_user_emails: [], added_later: 1 });

describe('the instructions bench child', () => {
  it.each(['eventry', 'ajv'] as const)('%s validates the row in both modes', (contender) => {
    for (const [mode, payload] of [
      ['strict', valid],
      ['tolerant', undocumented],
    ] as const) {
      const result = runChild({ contender, mode, payload, valid: true });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    }
  });

  it.each(['eventry', 'ajv'] as const)(
    '%s: a verdict other than the row says fails the count',
    (contender) => {
      const result = runChild({ contender, mode: 'strict', payload: undocumented, valid: true });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`${contender} disagrees on ${KEY} (strict)`);
    },
  );
});
