import { dataRuleReports, ruleText } from '../data-rules.js';
import { code, type LintRule } from '../rule.js';

/**
 * A data rule no payload breaks: true for every payload by its expression alone, or (when the lint is
 * given the test data's probe) one `invalid` could not break alone in its bounded search. Either way the
 * rule checks nothing the others do not, and `invalid` has no payload to show for it.
 */
export const ruleUnbreakable: LintRule = {
  id: 'rule-unbreakable',
  description:
    'A data rule no payload can break (its expression is always true, or the test data finds no payload that breaks it alone): it checks nothing.',
  severity: 'warning',
  hint: 'Write the condition the payload must keep (a rule that only breaks with another one says nothing of its own: drop it or merge them).',
  check(ctx) {
    return dataRuleReports(
      ctx,
      true,
      'unbreakable',
      (written) =>
        `${ruleText(written)} is true for every payload (${code(written.rule.expr)}): no payload breaks it.`,
      (written, found) =>
        `${ruleText(written)} broke alone in no payload the test data tried for ${code(found.event)}: it may never break, or only with another rule.`,
    );
  },
};
