import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { compiledToolkitPath, fixturePath } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

// `eventry upcast` over a catalogue whose YAML declares migrations (test/fixtures/migrations): a chain
// v1 -> v2 -> v3, a downgrade, --validate with the built packages, and a live pipe as a process.

const CATALOGUE = fixturePath('migrations');
const DISPATCHED = 'billing.billing_document_representation.dispatched';
const v1 = (id: number) => ({
  account_number: `A-${id}`,
  billing_document_id: id,
  billing_document_identifier: `D-${id}`,
});
const v3 = (id: number) => ({
  ...v1(id),
  billing_document_representation_dispatch_id: id,
  billing_document_representations_id: [],
  support_user_id: 0,
});
const ndjson = (...payloads: unknown[]) => payloads.map((payload) => `${JSON.stringify(payload)}\n`).join('');
const parse = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((text) => JSON.parse(text));

let built: BuiltPackages;
beforeAll(async () => {
  built = await buildPackages(CATALOGUE);
}, 120_000);

describe('eventry upcast on a catalogue with migrations', () => {
  it('chains the upgrades to the newest version, one line out per line in', async () => {
    const run = await runCliInProcess(['upcast', `${DISPATCHED}-v1`, '--catalogue', CATALOGUE], {
      input: ndjson(v1(1), v1(2)),
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(parse(run.stdout)).toEqual([v3(1), v3(2)]);
  });

  it('--to stops on the way, and converts down through a downgrade', async () => {
    const up = await runCliInProcess(
      ['upcast', `${DISPATCHED}-v1`, '--to', `${DISPATCHED}-v2`, '--catalogue', CATALOGUE],
      { input: ndjson(v1(3)) },
    );
    expect(parse(up.stdout)).toEqual([
      { ...v1(3), billing_document_representation_dispatch_id: 3, billing_document_representations_id: [] },
    ]);
    const agreement = {
      agreement_id: 1,
      details: { changes: { a: 1 }, override: true },
      account_number: 'x',
      revision: 'override',
    };
    const down = await runCliInProcess(
      ['upcast', 'agreement.updated-v2', '--to', 'agreement.updated-v1', '--catalogue', CATALOGUE],
      { input: ndjson(agreement) },
    );
    expect(down.status).toBe(0);
    expect(parse(down.stdout)).toEqual([{ agreement_id: 1, changes: { a: 1 }, is_override: true }]);
  });

  it('--validate: a payload that is not one of KEY is located on stderr with its code and fields; exit 1', async () => {
    const run = await runCliInProcess(
      ['upcast', `${DISPATCHED}-v1`, '--validate', '--out', built.out, '--catalogue', CATALOGUE],
      { input: `${ndjson(v1(1))}{"account_number": "A-2"}\nnot json\n${ndjson(v1(4))}` },
    );
    expect(run.status).toBe(1);
    expect(parse(run.stdout)).toEqual([v3(1), v3(4)]);
    expect(run.stderr).toMatch(/^stdin:2: error event_failed_validation: /m);
    expect(run.stderr).toContain('    at billing_document_id: ');
    expect(run.stderr).toContain('[required]');
    expect(run.stderr).toMatch(/^stdin:3: error invalid_json: The line is not JSON/m);
    expect(run.stderr).toContain(
      `eventry upcast: 2 of 4 line(s) not converted (${DISPATCHED}-v1 -> ${DISPATCHED}-v2 -> ${DISPATCHED}-v3).`,
    );
  });

  it('as a process on a live pipe: each converted line comes out before the next is written', async () => {
    const child = spawn(
      process.execPath,
      [compiledToolkitPath('scripts/eventry.js'), 'upcast', `${DISPATCHED}-v1`, '--catalogue', CATALOGUE],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
    });
    /** Waits until `count` whole lines have come out (the test's timeout ends a wait that never does). */
    const lines = async (count: number) => {
      while (stdout.split('\n').length <= count) await sleep(10);
    };
    child.stdin.write(ndjson(v1(1)));
    await lines(1);
    expect(parse(stdout)).toEqual([v3(1)]);
    child.stdin.end(ndjson(v1(2)));
    await lines(2);
    const [code] = await exited;
    expect(code).toBe(0);
    expect(parse(stdout)).toEqual([v3(1), v3(2)]);
  });
});
