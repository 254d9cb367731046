import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { REPO } from '../helpers.js';
import { type FuzzCase, type Mutation, runFuzz } from './fuzz-harness.js';

// Hostile and mistaken input, as a stranger or a tired user would send it, to the files eventry reads
// on a user's behalf: teams and consumer files, the lint settings, suppression comments. Each suite
// counts stack traces, hangs, exits 70, internal errors and bytes of a file outside the catalogue in
// the output: all must be zero. Cases are drawn with a fixed seed, so a failure replays.

const CONSUMERS = join(REPO, 'test', 'fixtures', 'consumers', 'accepted', 'before');
const LINT = join(REPO, 'test', 'fixtures', 'lint', 'field-name-case', 'bad');
const CASES = Number(process.env.EVENTRY_FUZZ_CASES ?? 200);

/** Text with what breaks parsers and terminals: YAML syntax, control characters, ANSI escapes. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    '\u001b[2J\u001b[31mred',
    'a\nb',
    '\u0000',
    '*alias',
    '&a [*a, *a]',
    '{',
    '- -',
    '%YAML 9',
    '"\\x',
    '\u2028',
    '../../etc/passwd',
    '__proto__',
    'constructor',
  ),
  fc.stringMatching(/^[a-z_.\-*[\]{}:#&!|>'"%@` ]{0,30}$/),
);

/** A value of any JSON kind, nested a little. */
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nasty,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nasty, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A consumer declaration, near-valid or not. */
const declaration = fc.record(
  {
    team: fc.oneof(fc.constantFrom('ledger', 'comms', 'analytics', 'nobody'), nasty),
    consumes: fc.oneof(
      fc.dictionary(
        fc.oneof(fc.constantFrom('invoice.issued', 'invoice.voided', 'no.such'), nasty),
        fc.record(
          {
            versions: fc.oneof(
              fc.constantFrom('>=1', '1', '^2', '*', '1 || 2', '>=1 <1'),
              nasty,
              fc.integer(),
            ),
            fields: fc.oneof(
              fc.array(
                fc.oneof(fc.constantFrom('*', 'status', 'lines[].amount', 'a.b.c', 'lines[]'), nasty),
                { maxLength: 5 },
              ),
              anyValue,
            ),
            reader: fc.oneof(fc.constantFrom('strict', 'tolerant'), nasty),
            services: fc.oneof(fc.array(nasty, { maxLength: 3 }), anyValue),
          },
          { requiredKeys: [] },
        ),
        { maxKeys: 3 },
      ),
      anyValue,
    ),
    accepts: anyValue,
  },
  { requiredKeys: [] },
);

const teams = fc.record(
  {
    teams: fc.oneof(
      fc.dictionary(
        nasty,
        fc.record({ name: nasty, contact: nasty, code_owner: nasty }, { requiredKeys: [] }),
        { maxKeys: 4 },
      ),
      anyValue,
    ),
  },
  { requiredKeys: [] },
);

/** A file at `path`: YAML of a value, raw text, or not a plain file at all. */
const fileAt = (path: string, value: fc.Arbitrary<unknown>): fc.Arbitrary<Mutation> =>
  fc.oneof(
    { weight: 6, arbitrary: value.map((v) => ({ path, text: stringify(v) })) },
    { weight: 2, arbitrary: nasty.map((text) => ({ path, text })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Mutation>(
        { path, link: 'secret' },
        { path, link: 'inside' },
        { path, link: '/dev/zero' },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Mutation>(
        { path, special: 'fifo' },
        { path, special: 'folder' },
        { path, special: 'sparse' },
      ),
    },
  );

const consumerCases: FuzzCase[] = fc.sample(
  fc
    .array(
      fc.oneof(
        fileAt('teams.yaml', teams),
        fc
          .constantFrom(
            'consumers/ledger.yaml',
            'consumers/comms.yaml',
            'consumers/new.yaml',
            'consumers/deep/x.yaml',
          )
          .chain((path) => fileAt(path, declaration)),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((mutations) => ({
      mutations,
      commands: [
        ['lint', '--catalogue', '{dir}', '--format', 'json'],
        ['check', '--catalogue', '{dir}', '--base', '{dir}'],
      ],
    })),
  { numRuns: CASES, seed: 4801 },
);

/** A pattern: ordinary, catastrophic for a backtracking engine, or not a pattern at all. */
const pattern = fc.oneof(
  fc.constantFrom(
    '^(a+)+$',
    '(.*a){25}',
    '^(([a-z])+.)+[A-Z]([a-z])+$',
    '(a|aa)+$',
    '(\\w+\\s?)+$',
    '^[a-z][a-z0-9_]*$',
    '(a)\\1',
    '(?=x)',
    '[',
    '\\',
    '(?<n>a)\\k<n>',
    'x{2,1}',
    '',
  ),
  fc.stringMatching(/^[()[\]{}*+?|\\^$.a-z0-9]{1,25}$/),
);
const ruleId = fc.oneof(
  fc.constantFrom(
    'field-name-case',
    'enum-value-case',
    'event-key-format',
    'shape-name-case',
    'field-name-cases',
    'missing-description',
  ),
  nasty,
);
const lintSettings = fc.record(
  {
    preset: fc.oneof(fc.constantFrom('recommended', 'strict'), nasty),
    rules: fc.oneof(
      fc.dictionary(
        ruleId,
        fc.oneof(
          fc.constantFrom('error', 'warning', 'info', 'off'),
          nasty,
          fc.record({ severity: fc.constantFrom('error', 'warning'), pattern }, { requiredKeys: [] }),
        ),
        { maxKeys: 4 },
      ),
      anyValue,
    ),
    ignore: fc.oneof(
      fc.array(
        fc.record(
          {
            path: fc.oneof(
              fc.constantFrom('**', '*.yaml', '{a,b}/**', '**/**/**/**/*.y?ml', '[', '!(x)'),
              nasty,
            ),
            rules: fc.array(ruleId, { maxLength: 2 }),
            reason: nasty,
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
      anyValue,
    ),
    baseline: fc.oneof(
      fc.constantFrom(
        'lint-baseline.json',
        '../secret.txt',
        '/etc/passwd',
        '/dev/zero',
        'orders.yaml',
        'eventry.config.yaml',
        '.',
        '',
      ),
      nasty,
    ),
  },
  { requiredKeys: [] },
);

/** Suppression comments above the fields: names, reasons and lengths of any kind. */
const suppressions = fc.array(
  fc.oneof(
    fc
      .tuple(fc.array(ruleId, { maxLength: 3 }), fc.oneof(nasty, fc.constant('The platform sends it so.')))
      .map(
        ([rules, reason]) =>
          `# eventry-lint-disable-next-line ${rules.join(', ')} -- ${reason.replaceAll('\n', ' ')}`,
      ),
    fc.constantFrom(
      '# eventry-lint-disable-next-line',
      '# eventry-lint-disable-next-line field-name-case',
      '#eventry-lint-disable-next-line field-name-case --',
      '# eventry-lint-disable-next-line -- reason',
    ),
  ),
  { maxLength: 6 },
);

const ORDERS = 'group:\n  slug: orders\n  title: Orders\nevents:\n  orders.placed-v1:\n    fields:\n';
const lintCases: FuzzCase[] = fc.sample(
  fc
    .record({
      settings: lintSettings,
      comments: suppressions,
      repeat: fc.constantFrom(1, 1, 1, 50, 2000),
      baselineFile: fc.option(fileAt('lint-baseline.json', anyValue), { nil: undefined }),
    })
    .map(({ settings, comments, repeat, baselineFile }) => {
      const block = Array.from({ length: repeat }, () =>
        comments.map((line) => `      ${line}\n`).join(''),
      ).join('');
      const mutations: Mutation[] = [
        {
          path: 'eventry.config.yaml',
          text: `title: T\nversion: 1.0.0\nscope: "@t"\n${stringify({ lint: settings })}`,
        },
        {
          path: 'orders.yaml',
          text: `${ORDERS}${block}      orderId: {type: string, required: true}\n${block}      total_amount: {type: integer}\n`,
        },
        ...(baselineFile ? [baselineFile] : []),
      ];
      return {
        mutations,
        commands: [
          ['lint', '--catalogue', '{dir}'],
          ['lint', '--catalogue', '{dir}', '--format', 'sarif'],
        ],
      };
    }),
  { numRuns: CASES, seed: 4802 },
);

const ZERO = { stackTraces: 0, hangs: 0, exit70: 0, internalErrors: 0, leakedBytes: 0 };

describe('fuzz: files eventry reads on a user’s behalf', () => {
  it.each([
    [`teams and consumer files (${CASES} cases, lint and check)`, CONSUMERS, consumerCases],
    [`lint settings, baselines and suppression comments (${CASES} cases)`, LINT, lintCases],
  ] as const)(
    '%s: no trace, hang, exit 70, internal error or leak',
    async (_name, driver, cases) => {
      const counts = await runFuzz(driver, cases);
      console.info(`fuzz counts: ${JSON.stringify({ ...counts, examples: counts.examples.length })}`);
      expect(
        { ...counts, examples: undefined, cases: undefined, runs: undefined },
        counts.examples.join('\n\n'),
      ).toMatchObject(ZERO);
      expect(counts.runs).toBeGreaterThanOrEqual(CASES * 2);
    },
    900_000,
  );
});
