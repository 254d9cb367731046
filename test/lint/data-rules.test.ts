import { describe, expect, it } from 'vitest';
import type { LintFinding } from '../../generators/lint/rule.js';
import { NEVER_BROKEN, ORDER_RULES } from '../cel/corpus.js';
import { dataRuleFindings, orderCatalogue } from './data-rules-fixture.js';

/** Rules true for every payload, by their tree alone: `rule-unbreakable` without the test data. */
const ALWAYS_TRUE = [
  'true',
  'has(message.note) || !has(message.note)',
  '!has(message.note) || has(message.note)',
  '!(has(message.note) && !has(message.note))',
  'message.paid || !message.paid',
  'message.currency == message.currency',
  'size(message.tags) >= size(message.tags)',
  'message.lines.all(l, has(l.sku) || !has(l.sku))',
  'message.paid ? true : !false',
  '1 + 1 == 2',
  '"a" < "b" || message.amount > 0.0',
  'timestamp(message.placed_at) == timestamp(message.placed_at)',
];

/** Rules false for every payload: `rule-unsatisfiable` without the test data. */
const ALWAYS_FALSE = [
  'false',
  'has(message.note) && !has(message.note)',
  'message.currency != message.currency',
  '1 > 2',
  'message.paid && !message.paid',
];

/** Rules of the agreement corpus that no payload breaks, each for a reason only the test data finds. */
const TRULY_UNBREAKABLE = NEVER_BROKEN;

/** The corpus's rules, each one an event's only rule. */
const CORPUS = Object.values(ORDER_RULES).flat();
const BREAKABLE = CORPUS.filter((expr) => !TRULY_UNBREAKABLE.has(expr));

describe('rule-unbreakable', () => {
  it('reports every rule true for every payload, at its expr, without the test data', () => {
    const findings = dataRuleFindings(orderCatalogue(ALWAYS_TRUE.map((expr) => [expr])), false);
    expect(findings.map((finding) => [finding.rule, finding.subject])).toEqual(
      ALWAYS_TRUE.map((_, i) => ['rule-unbreakable', `event order.e${i}-v1 rule rule_0`]),
    );
    // `expr:` of event i is written 18 lines after the event's key, the value at column 15.
    expect(findings.map((finding) => finding.location.line)).toEqual(ALWAYS_TRUE.map((_, i) => 20 + 19 * i));
    for (const finding of findings) {
      expect(finding.location).toMatchObject({ file: 'groups/shop.yaml', column: 15 });
      expect(finding.severity).toBe('warning');
      expect(finding.message).toMatch(/is true for every payload .*: no payload breaks it\.$/);
    }
  });

  it(`reports no breakable rule of the agreement corpus (${BREAKABLE.length} rules)`, () => {
    const findings = dataRuleFindings(orderCatalogue(BREAKABLE.map((expr) => [expr])));
    const exprOf = (finding: LintFinding) => BREAKABLE[Number(/order\.e(\d+)-/.exec(finding.subject)![1])];
    const of = (rule: string) => findings.filter((finding) => finding.rule === rule).map(exprOf);
    expect(of('rule-unbreakable')).toEqual([]);
    // Every rule of the corpus can be kept, and `fake` keeps each (decision 0190): no false error.
    expect(of('rule-unsatisfiable')).toEqual([]);
  });

  it('reports, from the test data, the rules of the corpus no payload breaks', () => {
    const unbreakable = [...TRULY_UNBREAKABLE];
    const findings = dataRuleFindings(orderCatalogue(unbreakable.map((expr) => [expr])));
    expect(findings.map((finding) => [finding.rule, finding.subject])).toEqual(
      unbreakable.map((_, i) => ['rule-unbreakable', `event order.e${i}-v1 rule rule_0`]),
    );
    expect(findings[0]!.message).toContain('broke alone in no payload the test data tried');
    // Without the test data the tree alone does not tell.
    expect(dataRuleFindings(orderCatalogue(unbreakable.map((expr) => [expr])), false)).toEqual([]);
  });

  it('reports a rule that breaks only with another (redundant), and each such rule of an event', () => {
    const rules = ['message.amount > 10.0', 'message.amount > 0.0', 'message.amount >= 0.0', 'message.paid'];
    const findings = dataRuleFindings(orderCatalogue([rules]));
    expect(findings.map((finding) => finding.subject)).toEqual([
      'event order.e0-v1 rule rule_1',
      'event order.e0-v1 rule rule_2',
    ]);
  });
});

describe('rule-unsatisfiable', () => {
  it('reports every rule false for every payload, at its expr, without the test data', () => {
    const findings = dataRuleFindings(orderCatalogue(ALWAYS_FALSE.map((expr) => [expr])), false);
    expect(findings.map((finding) => [finding.rule, finding.subject, finding.severity])).toEqual(
      ALWAYS_FALSE.map((_, i) => ['rule-unsatisfiable', `event order.e${i}-v1 rule rule_0`, 'error']),
    );
    expect(findings.map((finding) => finding.location.line)).toEqual(ALWAYS_FALSE.map((_, i) => 20 + 19 * i));
  });

  it('reports a rule the test data cannot keep, with what it tried', () => {
    const findings = dataRuleFindings(orderCatalogue([['message.amount > 10.0 && message.amount < 5.0']]));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      rule: 'rule-unsatisfiable',
      subject: 'event order.e0-v1 rule rule_0',
      location: { file: 'groups/shop.yaml', line: 20, column: 15 },
    });
    expect(findings[0]!.message).toContain('found no payload that keeps rule `rule_0` in 500 tries');
    expect(findings[0]!.hint).toMatch(/^Loosen the rule/);
  });
});
