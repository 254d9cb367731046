import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LintFinding } from '../../generators/lint/rule.js';
import { applySuppressions } from '../../generators/lint/suppress.js';
import type { CatalogueSourceFile } from '../../generators/load/index.js';
import { REPO, tempDir } from '../helpers.js';
import { eventry } from './spawn.js';

const FIXTURE = join(REPO, 'test', 'fixtures', 'lint', 'field-name-case', 'bad');
const CONFIG = 'title: T\nversion: 1.0.0\nscope: "@t"\n';

/** A catalogue of one event whose `code` enum holds `values`, with `lint` settings. */
function catalogue(values: string[], lint = ''): string {
  const dir = join(tempDir('eventry-hostile-'), 'catalogue');
  cpSync(FIXTURE, dir, { recursive: true });
  writeFileSync(join(dir, 'eventry.config.yaml'), `${CONFIG}${lint}`);
  writeFileSync(
    join(dir, 'orders.yaml'),
    `group: {slug: orders, title: Orders}\nevents:\n  orders.placed-v1:\n    fields:\n      code: {type: string, enum: ${JSON.stringify(values)}}\n`,
  );
  return dir;
}

describe('user patterns in the lint settings', () => {
  it('a catastrophic pattern answers at once (linear-time engine), for lint and build alike', () => {
    const dir = catalogue(
      ['ok', `${'a'.repeat(60)}!`],
      'lint:\n  rules:\n    enum-value-case: {pattern: "^(a+)+$"}\n',
    );
    const lint = eventry(['lint', '--catalogue', dir], 20_000);
    expect(lint.status, 'lint hung').toBe(0);
    expect(lint.stdout).toContain('do not match `^(a+)+$`');
    const out = join(tempDir('eventry-hostile-out-'), 'packages');
    const build = eventry(['build', '--catalogue', dir, '--out', out], 60_000);
    expect(build.status, `build hung or failed: ${build.output}`).toBe(0);
  });

  it.each(['(a)\\1', '(?=a)b', '(?<!a)b'])(
    'a pattern the engine does not take (%s) is an invalid-lint-pattern problem where it is written',
    (pattern) => {
      const dir = catalogue(['ok'], `lint:\n  rules:\n    enum-value-case: {pattern: '${pattern}'}\n`);
      const result = eventry(['lint', '--catalogue', dir]);
      expect(result.status).toBe(1);
      expect(result.stdout).toMatch(/eventry\.config\.yaml:6:\d+: error invalid-lint-pattern/);
    },
  );
});

describe('machine formats stay machine-readable', () => {
  const broken = (): string => {
    const dir = catalogue(['ok']);
    writeFileSync(join(dir, 'orders.yaml'), 'group: [\n');
    return dir;
  };
  const badSettings = (): string => catalogue(['ok'], 'lint:\n  rules:\n    no-such-rule: error\n');
  const badBaseline = (): string => {
    const dir = catalogue(['ok']);
    writeFileSync(join(dir, 'lint-baseline.json'), '{not json');
    return dir;
  };
  const cases: [string, () => string, string][] = [
    ['a catalogue that does not load', broken, 'yaml-syntax'],
    ['unknown lint settings', badSettings, 'unknown-lint-rule'],
    ['a baseline that is not JSON', badBaseline, 'invalid-lint-baseline'],
  ];

  it.each(cases)('%s: JSON, SARIF and GitHub commands, exit 1', (_, make, code) => {
    const dir = make();
    const json = eventry(['lint', '--catalogue', dir, '--format', 'json']);
    expect(json.status).toBe(1);
    const document = JSON.parse(json.stdout);
    expect(document.linted).toBe(false);
    expect(document.problems.map((problem: { code: string }) => problem.code)).toContain(code);
    const sarif = eventry(['lint', '--catalogue', dir, '--format', 'sarif']);
    expect(sarif.status).toBe(1);
    const log = JSON.parse(sarif.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].invocations[0].executionSuccessful).toBe(false);
    expect(log.runs[0].results.map((result: { ruleId: string }) => result.ruleId)).toContain(code);
    const github = eventry(['lint', '--catalogue', dir, '--format', 'github']);
    expect(github.status).toBe(1);
    const lines = github.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^::error file=[^,]+,line=\d+,col=\d+,title=[a-z-]+::/);
    expect(github.stdout).toContain(`title=${code}`);
  });

  it('control characters in catalogue text are escaped in text output', () => {
    const dir = catalogue(['ok', 'Bad\u001b[2J\u0007', 'tab\there', 'line\u2028sep']);
    const result = eventry(['lint', '--catalogue', dir]);
    expect(result.stdout).toContain('enum-value-case');
    expect(result.stdout).toContain('Bad\\u001b[2J\\u0007');
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
  });
});

describe('inline suppressions', () => {
  const finding = (line: number): LintFinding => ({
    rule: 'field-name-case',
    severity: 'warning',
    hint: 'h',
    message: 'm.',
    subject: `event e field f${line}`,
    location: { file: 'a.yaml', line, column: 1 },
  });

  it('a comment covers the next line that is neither blank nor a comment, across a long run of comments', () => {
    const comment = '# eventry-lint-disable-next-line field-name-case -- Sent so by the platform.';
    const lines = [...Array.from({ length: 3000 }, () => comment), '', '# note', 'field: x', 'other: y'];
    const files: CatalogueSourceFile[] = [{ path: 'a.yaml', text: lines.join('\n') }];
    const findings = [finding(3003), finding(3004)];
    const result = applySuppressions(findings, files, new Set(['field-name-case']));
    expect(result.kept.map((kept) => kept.location.line)).toEqual([3004]);
    expect(result.suppressed).toBe(1);
    // The first comment suppressed it: each of the other 2,999 suppresses nothing and says so.
    expect(result.problems.filter((problem) => problem.rule === 'unused-suppression')).toHaveLength(2999);
    expect(result.problems[0]!.location.line).toBe(2);
  });
});
