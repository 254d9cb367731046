import { PassThrough, Readable, Writable } from 'node:stream';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Container } from '../../generators/cli/container.js';
import { exitQuietlyOnClosedOutput, runCli } from '../../generators/cli/main.js';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { fixturePath, REPO } from '../helpers.js';

/**
 * `eventry fake` under random options, as a stranger or a tired user types them: counts up to the
 * documented maximum and beyond, seeds, variants, bad keys, bad numbers, stray flags, a stdout that takes
 * everything or closes early (`| head`). Run in-process (the CLI's own `runCli`, with the command line's
 * closed-output handling), each run is counted: stack traces, internal errors (exit 70), hangs. All zero.
 */
let built: BuiltPackages;
const KEYS = ['account.created-v1', 'account.removed-v2'];
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
});

/** How long one run may take before it counts as a hang: a guard, not a timing. */
const HANG_GUARD_MS = 20_000;

/** A stdout that keeps up to `cap` bytes, then fails every write with EPIPE, as a pipe whose reader left. */
function pipeOutput(cap: number): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  let taken = 0;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (taken >= cap) return done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      taken += chunk.length;
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

interface Outcome {
  status: number | 'hang';
  exits: number[];
  stdout: string;
  stderr: string;
}

async function runFake(args: string[], cap: number): Promise<Outcome> {
  const stdout = pipeOutput(cap);
  const stderrChunks: string[] = [];
  const stderr = new PassThrough();
  stderr.on('data', (data: Buffer) => stderrChunks.push(data.toString()));
  const exits: number[] = [];
  const io: Container = {
    stdin: Readable.from([]),
    stdout: stdout.stream,
    stderr,
    env: { ...process.env, NO_COLOR: '1' },
    cwd: REPO,
    onSignal: () => () => {},
    exit: (status) => exits.push(status),
  };
  exitQuietlyOnClosedOutput(io);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<'hang'>((resolve) => {
    timer = setTimeout(() => resolve('hang'), HANG_GUARD_MS);
  });
  const status = await Promise.race([runCli(['node', 'eventry', 'fake', ...args], io), hang]);
  clearTimeout(timer);
  // A failed write is reported on a later tick: let it reach the closed-output handler.
  await new Promise((resolve) => setImmediate(resolve));
  return { status, exits, stdout: stdout.text(), stderr: stderrChunks.join('') };
}

const goodCount = fc.oneof(
  fc.integer({ min: 0, max: 50 }),
  fc.integer({ min: 0, max: 10_000_000 }),
  fc.constant(10_000_000),
);
const badCount = fc.constantFrom(
  '-1',
  '1e3',
  '0x10',
  '1.5',
  '10000001',
  '',
  'abc',
  '99999999999999999999',
  ' 5',
  '5 ',
  'NaN',
  'Infinity',
  '١٢',
);
const key = fc.oneof(
  fc.constantFrom(...KEYS),
  fc.constantFrom(
    'account.created',
    'Account.Created-v1',
    '../account.created-v1',
    '',
    '-',
    '--help',
    'x'.repeat(500),
  ),
  fc.string({ maxLength: 40 }),
);
const flag = fc.oneof(
  goodCount.map((n) => ['-n', String(n)]),
  badCount.map((n) => ['--count', n]),
  fc.string({ maxLength: 30 }).map((seed) => ['--seed', seed]),
  fc.constantFrom('minimal', 'full', 'random', 'weird', '').map((variant) => ['--variant', variant]),
  fc.constant(['--invalid']),
  fc.constantFrom('--bogus', '-z', '--count', '--seed', '-n').map((stray) => [stray]),
  fc.constantFrom('/nonexistent', REPO, 'packages').map((dir) => ['--out', dir]),
);
const options = fc.record({
  key,
  flags: fc.oneof(
    fc.array(flag, { maxLength: 4 }),
    goodCount.map((n) => [['-n', String(n)]]),
  ),
  // Most runs have a reader that closes early; some read everything (their counts are small).
  cap: fc.constantFrom(0, 100, 70_000, 300_000, Number.POSITIVE_INFINITY),
});

describe('eventry fake under random options', () => {
  it('never ends in a stack trace, an internal error or a hang (300 runs)', async () => {
    const tally = { runs: 0, stackTraces: 0, internal: 0, hangs: 0, written: 0, refused: 0, closed: 0 };
    const bad: string[] = [];
    await fc.assert(
      fc.asyncProperty(options, async ({ key: eventKey, flags, cap }) => {
        // A reader that reads everything is given only small counts: the run must end by itself.
        const endless = cap === Number.POSITIVE_INFINITY;
        const args = [eventKey, ...flags.flat(), '--out', built.out].map((arg, i, all) =>
          endless && all[i - 1] === '-n' && Number(arg) > 2_000 ? '2000' : arg,
        );
        const outcome = await runFake(args, cap);
        tally.runs++;
        const label = `fake ${JSON.stringify(args)} (cap ${cap}): ${outcome.status} ${outcome.stderr.slice(0, 300)}`;
        const count = (what: 'stackTraces' | 'internal' | 'hangs') => {
          tally[what]++;
          bad.push(`${what}: ${label}`);
        };
        if (/\n\s+at /.test(outcome.stderr)) count('stackTraces');
        if (outcome.status === 70 || /internal error|bug in eventry/i.test(outcome.stderr)) count('internal');
        if (outcome.status === 'hang') count('hangs');
        if (outcome.exits.includes(141)) tally.closed++;
        else if (outcome.status === 0) tally.written++;
        else tally.refused++;
        // Whatever was written is whole NDJSON lines, but for the last line a closed pipe cut.
        if (outcome.stdout.startsWith('{'))
          for (const line of outcome.stdout.split('\n').slice(0, -1).slice(0, 50)) JSON.parse(line);
      }),
      { numRuns: 300, seed: 4242 },
    );
    expect(bad).toEqual([]);
    expect(tally, JSON.stringify(tally)).toMatchObject({ runs: 300, stackTraces: 0, internal: 0, hangs: 0 });
    // The corpus reaches every outcome: written, refused as usage errors, closed early.
    expect(tally.written).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.closed).toBeGreaterThan(0);
  }, 600_000);
});
