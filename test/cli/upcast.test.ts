import { PassThrough, Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { converterFor } from '../../generators/migrate/convert.js';
import type { ValidationResult } from '../../generators/runtime/runtime.js';
import { BufferedOutput } from '../../generators/validate/buffered-output.js';
import { GroupPackages } from '../../generators/validate/group-packages.js';
import {
  type UpcastLineProblem,
  type UpcastStreamOptions,
  upcastNdjson,
} from '../../generators/validate/upcast-stream.js';
import { smallWithMigrations, V1, V2 } from '../docs/migration-site.js';
import { writeModelPackages } from '../emit/package/build-packages.js';
import { fixturePath } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

// `eventry upcast KEY < ndjson` (issue 46). The command's arguments and refusals run through the CLI on
// the small fixture; the stream itself (generators/validate/upcast-stream.ts) runs on the small fixture's
// model with a migration attached by hand, until the loader reads `upgrade:` from YAML.

describe('eventry upcast refuses what it cannot convert, before reading stdin', () => {
  const small = ['--catalogue', fixturePath('small')];

  it('a key without an upgrade: exit 2, no-migration-path, and what to give instead', async () => {
    const run = await runCliInProcess(['upcast', 'account.created-v1', ...small], { input: '{}\n' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'eventry upcast: error no-migration-path: no version upgrades from `account.created-v1`',
    );
    expect(run.stderr).toContain('give --to KEY2');
    expect(run.stdout).toBe('');
  });

  it('two versions with no migration between them: exit 2, naming both', async () => {
    const run = await runCliInProcess(['upcast', V1, '--to', V2, ...small]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`no migration leads from \`${V1}\` to \`${V2}\``);
  });

  it('an unknown key, or --to: exit 2, unknown-event with the closest key', async () => {
    const run = await runCliInProcess(['upcast', 'account.removed-v3', ...small]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('error unknown-event: no event `account.removed-v3` in the catalogue.');
    expect(run.stderr).toMatch(/Did you mean `account\.removed-v[12]`\?/);
    const to = await runCliInProcess(['upcast', V1, '--to', 'acount.removed-v2', ...small]);
    expect(to.stderr).toContain('Did you mean `account.removed-v2`?');
  });

  it('no catalogue folder: a usage error', async () => {
    const run = await runCliInProcess(['upcast', V1, '--catalogue', 'no/such/folder']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('eventry upcast: no catalogue folder at no/such/folder');
  });

  it('is listed in the help with its exit statuses', async () => {
    const run = await runCliInProcess(['upcast', '--help']);
    expect(run.stdout).toContain('Exit status: 0 all converted, 1 some lines not converted, 2 usage error');
  });
});

/** A stream run over `lines`, its output lines and problems. */
async function convertLines(
  lines: string,
  validate?: (payload: unknown) => ValidationResult,
): Promise<{ out: string[]; problems: UpcastLineProblem[]; result: unknown }> {
  const found = converterFor(smallWithMigrations(), V1);
  if (!found.ok) throw new Error('the model has no upgrade from v1');
  const sink = collector();
  const problems: UpcastLineProblem[] = [];
  const options: UpcastStreamOptions = {
    convert: found.converter.convert,
    ...(validate ? { validate } : {}),
    maxBytes: 1024,
    output: new BufferedOutput(sink.stream),
    problem: (problem) => problems.push(problem),
  };
  const result = await upcastNdjson(Readable.from([Buffer.from(lines)]), options);
  await options.output.flush();
  return { out: sink.text().split('\n').filter(Boolean), problems, result };
}

function collector(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

const v1 = (number: string) => ({ account_number: number, account_user_emails: [], status: 'closed' });
const v2 = (number: string) => ({
  account_number: number,
  account_user_emails: [],
  reason: `closed by ${number}`,
  changes: { migrated: true, status: 'closed' },
});

describe('the upcast stream', () => {
  let validate: (payload: unknown) => ValidationResult;

  beforeAll(async () => {
    const packages = new GroupPackages(await writeModelPackages(smallWithMigrations()));
    const validator = (await packages.validatorFor(V1))!;
    validate = (payload) => validator(V1, payload, { mode: 'strict' });
  }, 120_000);

  it('converts each line in order; a bad line is located and coded, and the rest goes on', async () => {
    const input = [
      JSON.stringify(v1('A-1')),
      '{"account_number": ',
      '',
      '[1, 2]',
      `\uFEFF${JSON.stringify(v1('A-3'))}`,
      `${JSON.stringify(v1('A-4'))}\r`,
    ].join('\n');
    const { out, problems, result } = await convertLines(input);
    expect(out.map((text) => JSON.parse(text))).toEqual([v2('A-1'), v2('A-4')]);
    expect(problems.map(({ line, code }) => [line, code])).toEqual([
      [2, 'invalid_json'],
      [4, 'migration_failed'],
      [5, 'invalid_json'],
    ]);
    expect(problems[1]?.detail).toBe('The line is not a JSON object.');
    expect(result).toEqual({ kind: 'done', count: 5, failed: 3 });
  });

  it('with --validate, a payload that is not one of KEY is refused with the validator errors at their paths', async () => {
    const input = [JSON.stringify(v1('A-1')), JSON.stringify({ account_number: 7 })].join('\n');
    const { out, problems } = await convertLines(input, validate);
    expect(out.map((text) => JSON.parse(text))).toEqual([v2('A-1')]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 2, code: 'event_failed_validation' });
    expect(problems[0]?.errors.map((item) => [item.attr, item.code])).toEqual(
      expect.arrayContaining([
        ['account_number', 'invalid_type'],
        ['account_user_emails', 'required'],
      ]),
    );
    // Without --validate the same line converts (the build verified the migration on valid payloads only).
    expect((await convertLines(JSON.stringify({ account_number: 'B' }))).problems).toEqual([]);
  });

  it('a line over --max-bytes is invalid_line, and the next line still converts', async () => {
    const long = JSON.stringify({ ...v1('A-1'), pad: 'x'.repeat(2000) });
    const { out, problems } = await convertLines(`${long}\n${JSON.stringify(v1('A-2'))}\n`);
    expect(problems.map(({ line, code }) => [line, code])).toEqual([[1, 'invalid_line']]);
    expect(out.map((text) => JSON.parse(text))).toEqual([v2('A-2')]);
  });

  it('streams: each line is written as soon as it is converted, before the input ends', async () => {
    const found = converterFor(smallWithMigrations(), V1);
    if (!found.ok) throw new Error('no upgrade');
    const input = new PassThrough();
    const sink = collector();
    const output = new BufferedOutput(sink.stream);
    const done = upcastNdjson(input, {
      convert: found.converter.convert,
      maxBytes: 1024,
      output,
      problem: () => undefined,
    });
    input.write(`${JSON.stringify(v1('A-1'))}\n`);
    for (let tries = 0; tries < 100 && !sink.text(); tries++) await sleep(10);
    expect(JSON.parse(sink.text())).toEqual(v2('A-1'));
    input.end(`${JSON.stringify(v1('A-2'))}\n`);
    expect(await done).toEqual({ kind: 'done', count: 2, failed: 0 });
    await output.flush();
    expect(sink.text().trim().split('\n')).toHaveLength(2);
  });
});
