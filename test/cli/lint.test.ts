import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINT_RULES } from '../../generators/lint/rules/index.js';
import { REPO, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

const FIXTURES = join(REPO, 'test', 'fixtures', 'lint');
const CONFIG = 'title: Lint fixture catalogue\nversion: 1.0.0\nscope: "@fixture-events"\n';

/** A copy of a rule's fixture catalogue in a temp folder, with `lint:` settings when given. */
function catalogueOf(rule: string, side: 'bad' | 'good' = 'bad', lint = ''): string {
  const dir = join(tempDir('eventry-lint-'), 'catalogue');
  cpSync(join(FIXTURES, rule, side), dir, { recursive: true });
  writeFileSync(join(dir, 'eventry.config.yaml'), `${CONFIG}${lint}`);
  return dir;
}

/**
 * The official SARIF 2.1.0 schema (draft-04) as @microsoft/jest-sarif ships and compiles it: with its
 * own ajv 6, which reads draft-04 (ajv 8 does not, and the schema's one `language` pattern is not a
 * valid unicode-mode expression).
 */
function sarifValidator(): ((data: unknown) => boolean) & { errors?: unknown } {
  const requireFromPackage = createRequire(
    join(REPO, 'node_modules/@microsoft/jest-sarif/lib/build-matcher.js'),
  );
  const Ajv = requireFromPackage('ajv');
  const ajv = new Ajv({ schemaId: 'auto', validateSchema: false, allErrors: true });
  ajv.addMetaSchema(requireFromPackage('ajv/lib/refs/json-schema-draft-04.json'));
  return ajv.compile(requireFromPackage('../lib/schemas/sarif-2.1.0-rtm.5.json'));
}

const lint = (dir: string, ...args: string[]) => runCliInProcess(['lint', '--catalogue', dir, ...args]);

describe('eventry lint: text output and exit status', () => {
  it('prints file:line:column, severity, rule id, message and hint; warnings alone pass', async () => {
    const dir = catalogueOf('field-name-case');
    const result = await lint(dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      `${dir}/orders.yaml:8:7: warning field-name-case: Field \`orderId\` of event \`orders.placed-v1\` does not match`,
    );
    expect(result.stdout).toMatch(/\n {4}hint: Use the catalogue case/);
    expect(result.stdout).toMatch(/eventry lint: 0 errors, 2 warnings, 0 infos: passed\.\n$/);
  });

  it('fails on more warnings than --max-warnings, and passes at the limit', async () => {
    const dir = catalogueOf('field-name-case');
    const over = await lint(dir, '--max-warnings', '1');
    expect(over.status).toBe(1);
    expect(over.stdout).toContain('failed (more than 1 warning(s))');
    expect((await lint(dir, '--max-warnings', '2')).status).toBe(0);
    const usage = await lint(dir, '--max-warnings', 'many');
    expect(usage.status).toBe(2);
  });

  it('fails on an error: a rule raised to error in eventry.config.yaml, or every warning under the strict preset', async () => {
    const raised = await lint(
      catalogueOf('field-name-case', 'bad', 'lint:\n  rules:\n    field-name-case: error\n'),
    );
    expect(raised.status).toBe(1);
    expect(raised.stdout).toContain(': error field-name-case:');
    const strict = await lint(catalogueOf('version-gap', 'bad', 'lint:\n  preset: strict\n'));
    expect(strict.status).toBe(1);
    expect(strict.stdout).toContain(': error version-gap:');
    // missing-description is off by default; strict turns it on as a warning.
    expect(strict.stdout).toContain(': warning missing-description:');
  });

  it('reports an unknown rule id in the settings where it is written, with a guess, and lints nothing', async () => {
    const dir = catalogueOf('field-name-case', 'bad', 'lint:\n  rules:\n    field-name-cases: error\n');
    const result = await lint(dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      `${dir}/eventry.config.yaml:6:5: error unknown-lint-rule: \`field-name-cases\` is not a lint rule.`,
    );
    expect(result.stdout).toContain('Did you mean `field-name-case`?');
    expect(result.stdout).not.toContain('warning field-name-case');
  });

  it('takes a pattern for a naming rule from the settings', async () => {
    const dir = catalogueOf(
      'field-name-case',
      'bad',
      "lint:\n  rules:\n    field-name-case: {pattern: '^[a-zA-Z_]+$'}\n",
    );
    const result = await lint(dir);
    expect(result.stdout).toContain('0 warnings');
  });

  it('drops findings in files an ignore entry names', async () => {
    const dir = catalogueOf(
      'field-name-case',
      'bad',
      'lint:\n  ignore:\n    - {path: "order*.yaml", rules: [field-name-case], reason: Generated from the legacy system.}\n',
    );
    const result = await lint(dir);
    expect(result.stdout).toContain(
      'eventry lint: 0 errors, 0 warnings, 0 infos (2 ignored by path): passed.',
    );
  });

  it('a missing catalogue folder (or a file given as one) is a usage error, not an internal error', async () => {
    for (const path of [join(tempDir('eventry-lint-'), 'nothing'), join(REPO, 'README.md')]) {
      const result = await lint(path);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('eventry lint: no catalogue folder at');
    }
  });

  it('a catalogue that does not load is reported with its problems, exit 1', async () => {
    const dir = catalogueOf('field-name-case');
    writeFileSync(join(dir, 'orders.yaml'), 'group: [\n');
    const result = await lint(dir);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('error yaml-syntax');
  });
});

describe('eventry lint: inline suppressions', () => {
  const suppress = (comment: string): string => {
    const dir = catalogueOf('field-name-case');
    const path = join(dir, 'orders.yaml');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace('      orderId:', `      ${comment}\n      orderId:`),
    );
    return dir;
  };

  it('a comment with a reason suppresses that rule on the next line', async () => {
    const result = await lint(
      suppress('# eventry-lint-disable-next-line field-name-case -- The platform sends it so.'),
    );
    expect(result.stdout).not.toContain('orderId');
    expect(result.stdout).toContain('1 warning, 0 infos (1 suppressed)');
  });

  it('a comment without a reason suppresses nothing and is an error', async () => {
    const result = await lint(suppress('# eventry-lint-disable-next-line field-name-case'));
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      ':8:7: error suppression-without-reason: The suppression gives no reason.',
    );
    expect(result.stdout).toContain('warning field-name-case: Field `orderId`');
  });

  it('a comment that suppresses nothing is a warning; one naming no rule of the pack is an error', async () => {
    const unused = await lint(
      suppress('# eventry-lint-disable-next-line date-without-format -- Not a date.'),
    );
    expect(unused.stdout).toContain(
      'warning unused-suppression: The suppression of `date-without-format` matches no finding on line 9.',
    );
    const unknown = await lint(suppress('# eventry-lint-disable-next-line field-case -- Typo.'));
    expect(unknown.status).toBe(1);
    expect(unknown.stdout).toContain('error unknown-lint-rule: `field-case` is not a lint rule.');
  });
});

describe('eventry lint: the baseline', () => {
  it('records the current findings; after that only new ones are reported and fail', async () => {
    const dir = catalogueOf('field-name-case', 'bad', 'lint:\n  rules:\n    field-name-case: error\n');
    const written = await lint(dir, '--write-baseline');
    expect(written.status).toBe(0);
    expect(written.stdout).toContain(
      `recorded 2 finding(s) (2 errors, 0 warnings, 0 infos) in ${dir}/lint-baseline.json`,
    );
    const baseline = JSON.parse(readFileSync(join(dir, 'lint-baseline.json'), 'utf8'));
    expect(baseline.findings).toEqual([
      { rule: 'field-name-case', subject: 'event orders.placed-v1 field Currency' },
      { rule: 'field-name-case', subject: 'event orders.placed-v1 field orderId' },
    ]);
    const again = await lint(dir);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('0 errors, 0 warnings, 0 infos (2 in the baseline): passed.');
    // A line added above moves the findings: still recorded. A new bad field is not.
    const path = join(dir, 'orders.yaml');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace('    fields:\n', '    fields:\n      shipTo: {type: string}\n'),
    );
    const added = await lint(dir);
    expect(added.status).toBe(1);
    expect(added.stdout).toContain('error field-name-case: Field `shipTo`');
    expect(added.stdout).toContain('1 error, 0 warnings, 0 infos (2 in the baseline): failed (errors).');
    expect((await lint(dir, '--no-baseline')).stdout).toContain('3 errors');
    // Its own baseline it replaces: the new finding is then recorded too.
    expect((await lint(dir, '--write-baseline')).stdout).toContain('recorded 3 finding(s)');
    expect((await lint(dir)).status).toBe(0);
  });

  it('refuses to overwrite a file it did not write, and reports a broken baseline', async () => {
    const dir = catalogueOf('field-name-case');
    writeFileSync(join(dir, 'lint-baseline.json'), '{"mine": true}\n');
    const refused = await lint(dir, '--write-baseline');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('was not written by `eventry lint --write-baseline`');
    expect(readFileSync(join(dir, 'lint-baseline.json'), 'utf8')).toBe('{"mine": true}\n');
    const broken = await lint(dir);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain('lint-baseline.json:1:1: error invalid-lint-baseline');
  });
});

describe('eventry lint: machine-readable outputs', () => {
  it('--format sarif is a SARIF 2.1.0 log the official schema accepts, a result per finding at its line', async () => {
    const dir = catalogueOf('personal-data-unclassified');
    const result = await lint(dir, '--format', 'sarif');
    const log = JSON.parse(result.stdout);
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    // The schema is strict: it does reject a log with a wrong level (the validation can fail).
    const broken = structuredClone(log);
    broken.runs[0].results[0].level = 'fatal';
    expect(validate(broken)).toBe(false);
    const [first] = log.runs[0].results;
    expect(first).toMatchObject({
      ruleId: 'personal-data-unclassified',
      level: 'warning',
      locations: [{ physicalLocation: { region: { startLine: 8, startColumn: 7 } } }],
    });
    expect(first.locations[0].physicalLocation.artifactLocation.uri).toMatch(/catalogue\/orders\.yaml$/);
    expect(log.runs[0].results).toHaveLength(6);
    expect(log.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id)).toContain(
      'date-without-format',
    );
  });

  it('--format json lists each finding with file, line, column, rule, hint and a stable fingerprint', async () => {
    const dir = catalogueOf('unused-shape');
    const result = await lint(dir, '--format', 'json');
    const json = JSON.parse(result.stdout);
    expect(json.findings).toEqual([
      expect.objectContaining({
        rule: 'unused-shape',
        severity: 'warning',
        file: `${dir}/orders.yaml`,
        line: 10,
        column: 3,
        subject: 'shape Orphan',
        fingerprint: expect.stringMatching(/^[0-9a-f]{32}$/),
      }),
    ]);
    expect(json.summary).toMatchObject({ error: 0, warning: 1, info: 0, baselined: 0 });
  });

  it('--format github prints one workflow annotation per finding', async () => {
    const dir = catalogueOf('unused-shape');
    const result = await lint(dir, '--format', 'github');
    expect(result.stdout).toContain(
      `::warning file=${dir}/orders.yaml,line=10,col=3,title=unused-shape::Shape \`Orphan\` is used by no event.%0A`,
    );
  });

  it('--list-rules names every rule with its default severity', async () => {
    const result = await runCliInProcess(['lint', '--list-rules']);
    expect(result.stdout).toContain('missing-description (off): ');
    expect(result.stdout.trim().split('\n')).toHaveLength(LINT_RULES.length);
    expect(result.stdout).toContain('group-without-owner (warning): ');
  });
});
