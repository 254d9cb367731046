import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

/** A copy of a data-rule lint fixture (`bad` side) in a temp project folder. */
function catalogueOf(rule: 'rule-unbreakable' | 'rule-unsatisfiable'): { project: string; dir: string } {
  const project = tempDir('eventry-lint-rules-');
  const dir = join(project, 'catalogue');
  cpSync(join(REPO, 'test', 'fixtures', 'lint', rule, 'bad'), dir, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{"name": "lint-rules", "private": true}\n');
  return { project, dir };
}

const lint = (dir: string, ...args: string[]) => runCliInProcess(['lint', '--catalogue', dir, ...args]);

describe('the data-rule lint rules in the commands', () => {
  it('eventry lint runs the test data: a rule broken only with another is found (text)', async () => {
    const { dir } = catalogueOf('rule-unbreakable');
    const result = await lint(dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      `${dir}/orders.yaml:32:15: warning rule-unbreakable: Rule \`amount_not_negative\` of event \`orders.placed-v1\` broke alone in no payload the test data tried`,
    );
    expect(result.stdout).toContain(
      `${dir}/orders.yaml:12:15: warning rule-unbreakable: Rule \`sku_present_or_not\``,
    );
    expect(result.stdout).toMatch(/eventry lint: 0 errors, 4 warnings, 0 infos: passed\.\n$/);
  });

  it('--format json and sarif carry the findings at the rule, as the other rules', async () => {
    const { dir } = catalogueOf('rule-unsatisfiable');
    const json = JSON.parse((await lint(dir, '--format', 'json')).stdout);
    expect(json.findings).toEqual([
      expect.objectContaining({ rule: 'rule-unsatisfiable', severity: 'error', line: 13, column: 15 }),
      expect.objectContaining({
        rule: 'rule-unsatisfiable',
        line: 21,
        column: 15,
        subject: 'event orders.shipped-v1 rule amount_impossible',
        hint: expect.stringMatching(/^Loosen the rule/),
      }),
    ]);
    const sarif = JSON.parse((await lint(dir, '--format', 'sarif')).stdout);
    expect(sarif.runs[0].results.map((result: { ruleId: string }) => result.ruleId)).toEqual([
      'rule-unsatisfiable',
      'rule-unsatisfiable',
    ]);
    expect(sarif.runs[0].results[1].locations[0].physicalLocation.region).toMatchObject({
      startLine: 21,
      startColumn: 15,
    });
  });

  it("eventry check's lint step fails on a rule the test data cannot keep", async () => {
    const { project, dir } = catalogueOf('rule-unsatisfiable');
    const result = await runCliInProcess(['check', '--catalogue', dir, '--base', dir], { cwd: project });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'error rule-unsatisfiable: Rule `amount_impossible` of event `orders.shipped-v1` was kept by no payload the test data drew',
    );
    expect(result.stdout).toContain('eventry check: lint: 2 errors, 0 warnings, 0 infos new: failed.');
  });
});
