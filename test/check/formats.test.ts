import { appendFileSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../cli/in-process.js';
import { tempDir } from '../helpers.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/consumers/', import.meta.url));
const gate = (fixture: string, ...args: string[]) =>
  runCliInProcess([
    'check',
    '--base',
    `${FIXTURES}${fixture}/before`,
    '--catalogue',
    `${FIXTURES}${fixture}/after`,
    ...args,
  ]);

/** A copy of a fixture's new side, to edit. */
function afterCopy(fixture: string): string {
  const dir = join(tempDir('eventry-check-formats-'), 'catalogue');
  cpSync(`${FIXTURES}${fixture}/after`, dir, { recursive: true });
  return dir;
}

describe('eventry check names strict readers', () => {
  it('an optional field added to a version a strict reader reads: broken for that version, naming the field', async () => {
    const run = await gate('strict-reader-field-added');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('broken invoice.issued-v1: ledger [ledger-service], strict reader');
    expect(run.stdout).toContain(
      'optional-field-added at invoice.issued-v1 note (a strict reader rejects what it does not know)',
    );
    expect(run.stdout).toContain('rejects what it does not know (`note`)');
    expect(run.stdout).toContain(
      'consumer(s) broken: ledger (invoice.issued-v1), ledger (invoice.issued-v2)',
    );
    // The tolerant readers of the same versions ignore the field.
    expect(run.stdout).not.toMatch(/broken invoice\.issued-v\d: (analytics|comms)/);
    expect(run.stdout).toMatch(/: failed\.\n$/);
  });

  it('the same change passes once the team reads tolerantly', async () => {
    const dir = afterCopy('strict-reader-field-added');
    const ledger = join(dir, 'consumers', 'ledger.yaml');
    writeFileSync(
      ledger,
      'team: ledger\nconsumes:\n  invoice.issued:\n    versions: ">=1"\n    services: [ledger-service]\n    fields: [account_number, "lines[].amount", status]\n',
    );
    const run = await runCliInProcess([
      'check',
      '--base',
      `${FIXTURES}strict-reader-field-added/before`,
      '--catalogue',
      dir,
    ]);
    expect(run.stdout).not.toContain('broken');
    expect(run.status).toBe(0);
  });
});

describe('eventry check --format json|markdown', () => {
  it('json: one document with the verdict, each shape change once, and whom it breaks', async () => {
    const run = await gate('field-removed', '--format', 'json');
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.verdict).toBe('failed');
    expect(report.summary).toMatchObject({ blocked: 1, brokenConsumers: 2, unreadPassing: 0 });
    const removed = report.diagnostics.filter((entry: { code: string }) => entry.code === 'field-removed');
    expect(removed).toHaveLength(1);
    expect(removed[0].reaches).toEqual([
      { event: 'invoice.issued-v1', attr: 'lines[].amount' },
      { event: 'invoice.issued-v2', attr: 'lines[].amount' },
    ]);
    expect(removed[0].hint).toContain('Shape `Line` is shared by 2 event versions');
    expect(removed[0].location.file).toMatch(/after\/groups\/billing\.yaml$/);
    const broken = report.consumers.impacts.filter(
      (impact: { status: string }) => impact.status === 'broken',
    );
    expect(broken.map((impact: { team: string; event: string }) => `${impact.team} ${impact.event}`)).toEqual(
      ['ledger invoice.issued-v1', 'ledger invoice.issued-v2'],
    );
    expect(report.lint.summary).toBeDefined();
  });

  it('json: a strict reader rejecting an added field is marked so', async () => {
    const report = JSON.parse((await gate('strict-reader-field-added', '--format', 'json')).stdout);
    const cause = report.consumers.impacts[0].causes[0];
    expect(cause).toMatchObject({ rule: 'optional-field-added', attr: 'note', rejectedByStrictReader: true });
  });

  it('json: a catalogue that does not load is still one JSON document, the error in it', async () => {
    const dir = afterCopy('field-removed');
    appendFileSync(join(dir, 'groups', 'billing.yaml'), '  broken: [\n');
    const run = await runCliInProcess([
      'check',
      '--base',
      `${FIXTURES}field-removed/before`,
      '--catalogue',
      dir,
      '--format',
      'json',
    ]);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.verdict).toBe('failed');
    expect(report.problems[0]).toMatchObject({ file: expect.stringMatching(/groups\/billing\.yaml$/) });
  });

  it('json: a base it cannot see leaves stdout empty and says why on stderr', async () => {
    const run = await runCliInProcess([
      'check',
      '--base',
      `${FIXTURES}no-such-fixture`,
      '--catalogue',
      `${FIXTURES}field-removed/after`,
      '--format',
      'json',
    ]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no-such-fixture');
  });

  it('markdown: a pull request comment with the verdict, the findings table and the consumers', async () => {
    const run = await gate('field-removed', '--format', 'markdown');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^## eventry check: failed\n/);
    expect(run.stdout).toContain('| error | `field-removed` |');
    expect(run.stdout.match(/\| `field-removed` \|/g)).toHaveLength(1);
    expect(run.stdout).toContain('## Consumers');
    expect(run.stdout).toContain('| broken | ledger [ledger-service], strict reader | `invoice.issued-v1` |');
  });
});

describe('the summary line with unread breaking changes let through', () => {
  it('says "passed with N unread breaking changes", not "blocked ... passed"', async () => {
    const dir = afterCopy('unread-change');
    appendFileSync(join(dir, 'eventry.config.yaml'), 'consumers:\n  unread_breaking: warn\n');
    const run = await runCliInProcess([
      'check',
      '--base',
      `${FIXTURES}unread-change/before`,
      '--catalogue',
      dir,
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /0 breaking change\(s\) to existing event versions blocked, .*: passed with 1 unread breaking change \(/,
    );
    expect(run.stdout).toMatch(
      /warning field-removed: invoice\.voided-v2 reason: .* Passes: no declared consumer reads it/,
    );
    expect(run.stdout).not.toMatch(/error field-removed/);
  });
});
