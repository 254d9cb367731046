import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type CatalogueProblem,
  CONFIG_FILE,
  CONSUMERS_FOLDER,
  formatProblem,
  loadCatalogue,
  PROBLEM_CODES,
  readCatalogueSources,
  TEAMS_FILE,
} from '../../generators/load/index.js';
import { BAD, badCases, prepareBadCase } from './bad-fixture.js';

/** One problem a bad fixture must produce; `message` and `hint` are substrings where wording matters. */
interface WantedProblem {
  code: string;
  file: string;
  line: number;
  column: number;
  message?: string;
  hint?: string;
}

const SCHEMAS = fileURLToPath(new URL('../../generators/schema/source/', import.meta.url));

/**
 * Load codes the loader itself never gives, so no bad catalogue folder can: each with the test file that
 * produces it (an OpenAPI document read as a catalogue; the build's check of the test data).
 */
const NOT_FROM_THE_LOADER: Readonly<Record<string, { why: string; testedIn: string }>> = {
  'external-ref': {
    why: 'a YAML catalogue has no $ref; an OpenAPI document with one into another file does',
    testedIn: 'test/sources/openapi.test.ts',
  },
  'rule-unsatisfiable': {
    why: "the build's test-data check finds it, after the catalogue loaded",
    testedIn: 'test/emit/package/testing-rules.test.ts',
  },
  'migration-unverified': {
    why: "the build's property run of each migration finds it, after the catalogue loaded",
    testedIn: 'test/emit/package/migration-check.test.ts',
  },
};

/** Every folder under test/fixtures/bad is a case: `catalogue/` plus `expected.json`. */
const cases: [string, WantedProblem[]][] = badCases.map((name) => [
  name,
  JSON.parse(readFileSync(join(BAD, name, 'expected.json'), 'utf8')) as WantedProblem[],
]);

const where = (p: { code: string; file: string; line: number; column: number }) =>
  `${p.file}:${p.line}:${p.column} ${p.code}`;

function problemsOf(name: string): CatalogueProblem[] {
  const { root, reader } = prepareBadCase(name);
  const result = loadCatalogue(root, reader);
  if (result.ok) throw new Error(`bad fixture ${name} loaded without problems`);
  return result.problems;
}

describe('bad catalogues: each reports exactly its problems, located', () => {
  it.each(cases)('%s', (name, want) => {
    const got = problemsOf(name);
    // Same count, same order, same code and file:line:column: one readable diff when anything moves.
    expect(got.map(where)).toEqual(want.map(where));
    want.forEach((wanted, i) => {
      const problem = got[i]!;
      if (wanted.message !== undefined) expect(problem.message, where(problem)).toContain(wanted.message);
      if (wanted.hint !== undefined) expect(problem.hint, where(problem)).toContain(wanted.hint);
    });
  });

  it.each(cases)('%s: every problem says what to do (a hint)', (name) => {
    for (const problem of problemsOf(name)) expect(problem.hint, formatProblem(problem)).toMatch(/\S/);
  });
});

describe('unreadable entries on a real disk', () => {
  // chmod cannot stop root, so as root the no-permission case is proven through the injected reader
  // (the `unreadable-no-permission` case above) and this one says why it did not run.
  const isRoot = process.getuid?.() === 0;
  it.skipIf(isRoot)(
    'a file without read permission is an unreadable-file problem, not an EACCES stack trace (skipped as root: root reads any file)',
    () => {
      const { root } = prepareBadCase('unreadable-directory-named-yaml');
      const secret = join(root, 'groups', 'secret.yaml');
      writeFileSync(secret, 'group: {slug: secret, title: Secret}\n');
      chmodSync(secret, 0o000);
      const result = loadCatalogue(root);
      expect(result.ok ? [] : result.problems.map(where)).toContain('groups/secret.yaml:1:1 unreadable-file');
    },
  );
});

describe('the bad-catalogue corpus', () => {
  it('covers every problem code the loader can report', () => {
    const covered = new Set(cases.flatMap(([, want]) => want.map((p) => p.code)));
    const uncovered = Object.keys(PROBLEM_CODES).filter(
      (code) => !covered.has(code) && !(code in NOT_FROM_THE_LOADER),
    );
    expect(uncovered, 'codes without a fixture under test/fixtures/bad/').toEqual([]);
  });

  it('leaves out only codes the loader never gives, each produced by the test that names it', () => {
    for (const [code, { why, testedIn }] of Object.entries(NOT_FROM_THE_LOADER)) {
      expect(code in PROBLEM_CODES, why).toBe(true);
      const tests = readFileSync(resolve(SCHEMAS, '../../..', testedIn), 'utf8');
      expect(tests, `${code}: ${why}`).toContain(`${code}`);
    }
  });

  it('names only codes the loader knows', () => {
    const codes = cases.flatMap(([name, want]) => want.map((p) => `${name}: ${p.code}`));
    expect(codes.filter((entry) => !(entry.split(': ')[1]! in PROBLEM_CODES))).toEqual([]);
  });

  it('reports many problems in several files in one run, sorted by file, line and column', () => {
    const got = problemsOf('many-problems-one-run');
    expect(new Set(got.map((p) => p.file)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(got.map((p) => p.code)).size).toBeGreaterThanOrEqual(5);
    const sorted = [...got].sort((a, b) =>
      a.file === b.file ? a.line - b.line || a.column - b.column : a.file < b.file ? -1 : 1,
    );
    expect(got.map(where)).toEqual(sorted.map(where));
  });

  it.each(cases)(
    '%s: every YAML file starts with a modeline naming the schema it is checked against',
    (name) => {
      const root = join(BAD, name, 'catalogue');
      for (const { path, text, unreadable } of readCatalogueSources(root)) {
        // A file the case makes unreadable on purpose (not UTF-8) has no text to check.
        if (unreadable !== undefined) continue;
        const schema = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text)?.[1];
        expect(schema, path).toBeDefined();
        const target = resolve(dirname(join(root, path)), schema!);
        const wanted =
          path === CONFIG_FILE
            ? 'config.schema.json'
            : path === TEAMS_FILE
              ? 'teams.schema.json'
              : path.startsWith(CONSUMERS_FOLDER)
                ? 'consumers.schema.json'
                : 'catalogue-file.schema.json';
        expect(target, path).toBe(join(SCHEMAS, wanted));
        expect(existsSync(target), path).toBe(true);
      }
    },
  );
});

describe('formatProblem', () => {
  const problem: CatalogueProblem = {
    code: 'unknown-shape',
    message: 'Shape `Ledgr` is not defined.',
    hint: 'Did you mean `Ledger`?',
    file: 'groups/billing.yaml',
    line: 8,
    column: 22,
  };

  it.each<[string, { given: { problem: CatalogueProblem; root?: string }; want: string }]>([
    [
      'file:line:column, code and message, then the hint on its own line',
      {
        given: { problem },
        want: 'groups/billing.yaml:8:22: error unknown-shape: Shape `Ledgr` is not defined.\n    hint: Did you mean `Ledger`?',
      },
    ],
    [
      'prefixed with the catalogue root (a trailing slash is not doubled)',
      {
        given: { problem, root: 'catalogue/' },
        want: 'catalogue/groups/billing.yaml:8:22: error unknown-shape: Shape `Ledgr` is not defined.\n    hint: Did you mean `Ledger`?',
      },
    ],
    [
      'no hint line when there is no hint',
      {
        given: { problem: { ...problem, hint: undefined }, root: 'catalogue' },
        want: 'catalogue/groups/billing.yaml:8:22: error unknown-shape: Shape `Ledgr` is not defined.',
      },
    ],
  ])('%s', (_, { given, want }) => {
    expect(formatProblem(given.problem, given.root)).toBe(want);
  });

  it('renders a loaded problem the way the CLI prints it', () => {
    const [first] = problemsOf('unknown-shape');
    expect(formatProblem(first!, 'test/fixtures/bad/unknown-shape/catalogue')).toBe(
      'test/fixtures/bad/unknown-shape/catalogue/groups/billing.yaml:8:22: error unknown-shape: ' +
        'Shape `Ledgr` is not defined.\n    hint: Did you mean `Ledger`?',
    );
  });
});
