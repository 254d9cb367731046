import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeRuleData } from '../../generators/emit/package/rule-probe.js';
import { resolveLintConfig } from '../../generators/lint/config.js';
import { lintCatalogue } from '../../generators/lint/lint.js';
import type { LintFinding, LintRule } from '../../generators/lint/rule.js';
import { LINT_REGISTRY, LINT_RULES, RETIRED_LINT_RULE_IDS } from '../../generators/lint/rules/index.js';
import { loadValid, REPO } from '../helpers.js';

const FIXTURES = join(REPO, 'test', 'fixtures', 'lint');
const RULES_DIR = join(REPO, 'generators', 'lint', 'rules');
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** The findings of one rule on a fixture catalogue, the rule on (an `off` rule at `info`). */
function ruleFindings(rule: LintRule, side: 'bad' | 'good'): LintFinding[] {
  const catalogue = loadValid(join(REPO, LINT_REGISTRY.fixtures(rule.id).sides[side]));
  const severity = rule.severity === 'off' ? 'info' : rule.severity;
  const config = resolveLintConfig({ rules: { [rule.id]: severity } });
  return lintCatalogue(catalogue, { config, ruleData: probeRuleData }).findings.filter(
    (finding) => finding.rule === rule.id,
  );
}

/** A finding as `expected.json` writes it. */
const asJson = (finding: LintFinding) => ({
  at: `${finding.location.file}:${finding.location.line}:${finding.location.column}`,
  severity: finding.severity,
  subject: finding.subject,
  message: finding.message,
});

describe('the lint rule registry', () => {
  it.each(LINT_RULES.map((rule) => [rule.id, rule] as const))('%s is fully described', (id, rule) => {
    expect(id).toMatch(KEBAB);
    expect(['error', 'warning', 'info', 'off']).toContain(rule.severity);
    expect(rule.description).toMatch(/^[A-Z].{20,}\.$/);
    expect(rule.description).not.toContain('\n');
    expect(rule.hint).toMatch(/^[A-Z].{10,}\.$/);
    if (rule.pattern !== undefined) expect(() => new RegExp(rule.pattern!, 'u')).not.toThrow();
    expect(existsSync(join(RULES_DIR, `${id}.ts`)), `generators/lint/rules/${id}.ts`).toBe(true);
    for (const side of ['bad', 'good'] as const)
      expect(
        existsSync(join(REPO, LINT_REGISTRY.fixtures(id).sides[side], 'eventry.config.yaml')),
        `${id}/${side}`,
      ).toBe(true);
  });

  it('has unique ids, one source file per rule and no file without a rule', () => {
    const ids = LINT_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    const files = readdirSync(RULES_DIR)
      .filter((name) => name !== 'index.ts')
      .map((name) => name.replace(/\.ts$/, ''));
    expect(files.sort()).toEqual([...ids].sort());
  });

  it('has a fixture pair for every rule and no fixture without a rule', () => {
    expect(readdirSync(FIXTURES).sort()).toEqual(LINT_RULES.map((rule) => rule.id).sort());
  });

  it('never reuses a retired rule id, and says why each was retired', () => {
    const live = new Set(LINT_RULES.map((rule) => rule.id));
    for (const retired of RETIRED_LINT_RULE_IDS) {
      expect(live.has(retired.id), `${retired.id} is retired`).toBe(false);
      expect(retired.id).toMatch(KEBAB);
      expect(retired.reason).toMatch(/^[A-Z].{10,}\.$/);
    }
    expect(new Set(RETIRED_LINT_RULE_IDS.map((retired) => retired.id)).size).toBe(
      RETIRED_LINT_RULE_IDS.length,
    );
  });
});

describe.each(LINT_RULES.map((rule) => [rule.id, rule] as const))(
  'lint rule %s on its fixture pair',
  (id, rule) => {
    it('reports exactly the expected findings on the bad catalogue', async () => {
      const findings = ruleFindings(rule, 'bad');
      expect(findings.length).toBeGreaterThan(0);
      for (const finding of findings) expect(finding.message).toMatch(/\S.*\.$/);
      await expect(`${JSON.stringify(findings.map(asJson), null, 2)}\n`).toMatchFileSnapshot(
        join(REPO, LINT_REGISTRY.fixtures(id).folder, 'expected.json'),
      );
    });

    it('reports nothing on the good catalogue', () => {
      expect(ruleFindings(rule, 'good').map(asJson)).toEqual([]);
    });
  },
);
