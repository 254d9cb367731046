import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventSchema } from '../../../generators/emit/package/validators.js';
import { standaloneEventSchema } from '../../../generators/schema/json-schema.js';
import { type ContenderThreads, contenderThreads } from '../../../scripts/bench/validate.js';
import { CONTENDERS, type MeasureRequest } from '../../../scripts/bench/validate-worker.js';
import { type BuiltPackages, buildPackages } from '../../emit/package/build-packages.js';
import { compiledToolkitPath, fixturePath } from '../../helpers.js';

/**
 * The validation bench's contender threads (`contenderThreads` over the compiled
 * `scripts/bench/validate-worker.ts`), on the small fixture's packages: each contender measures a row,
 * says so when it disagrees with the row's verdict, and eventry's thread measures `JSON.parse` against
 * parse + validate. `npm run bench` is not part of `npm test`; this keeps its harness from breaking
 * unnoticed.
 */
const SCRIPT = compiledToolkitPath('scripts/bench/validate-worker.js');
const KEY = 'account.created-v1';
let built: BuiltPackages;
let threads: ContenderThreads;

beforeAll(async () => {
  if (!existsSync(SCRIPT)) throw new Error(`${SCRIPT} is missing: run \`npm run build:tool\``);
  built = await buildPackages(fixturePath('small'));
  threads = contenderThreads(built.out);
}, 60_000);

afterAll(async () => {
  await threads?.close();
});

const request = (mode: 'strict' | 'tolerant', payload: unknown, valid: boolean): MeasureRequest => ({
  row: `${KEY} ${mode} ${valid}`,
  slug: 'account',
  key: KEY,
  mode,
  schema:
    mode === 'strict'
      ? standaloneEventSchema(built.catalogue, KEY, 'closed')
      : openEventSchema(built.catalogue, KEY),
  payload: JSON.stringify(payload),
  valid,
  cpuMs: 2,
});

const valid = { account_number: 'A-1', account_user_emails: ['a@example.com'] };
const undocumented = { ...valid, added_later: true };

describe('the validation bench, one thread per contender', () => {
  it.each(CONTENDERS)('%s measures a valid and an invalid row in both modes', async (contender) => {
    for (const [mode, payload, isValid] of [
      ['strict', valid, true],
      ['strict', undocumented, false],
      ['tolerant', undocumented, true],
      ['tolerant', { account_number: 1 }, false],
    ] as const) {
      const reply = await threads.measure(contender, request(mode, payload, isValid));
      expect(reply.ns).toBeGreaterThan(0);
    }
  });

  it.each(CONTENDERS)('%s says when it disagrees with the verdict asked', async (contender) => {
    await expect(threads.measure(contender, request('strict', undocumented, true))).rejects.toMatchObject({
      message: `${contender} disagrees on ${KEY} (strict)`,
    });
  });

  it("eventry's thread measures JSON.parse alone and parse + validate", async () => {
    const reply = await threads.measure('eventry', { ...request('strict', valid, true), parse: true });
    expect(reply.ns).toBeGreaterThan(0);
    expect(reply.parseValidateNs).toBeGreaterThan(0);
  });
});
