import { dataRuleReports, ruleText } from '../data-rules.js';
import { code, type LintRule } from '../rule.js';

/**
 * A data rule no payload keeps: false for every payload by its expression alone, or one the test data
 * (`fake`) kept in none of its bounded tries. The build fails on it too (`rule-unsatisfiable`, from the
 * test data); the lint says so beside the other findings, at the rule, in every output format.
 */
export const ruleUnsatisfiable: LintRule = {
  id: 'rule-unsatisfiable',
  description:
    'A data rule no payload can keep (its expression is always false, or the test data finds no payload that keeps it): every payload of the event is refused.',
  severity: 'error',
  hint: 'Loosen the rule until a valid payload keeps it (check it against an example), or give the field a type or enum the rule allows.',
  check(ctx) {
    return dataRuleReports(
      ctx,
      false,
      'unsatisfiable',
      (written) =>
        `${ruleText(written)} is false for every payload (${code(written.rule.expr)}): no payload keeps it.`,
      (written, found) => `${ruleText(written)} was kept by no payload the test data drew: ${found.detail}`,
    );
  },
};
