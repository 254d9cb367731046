import { code, type Rule } from '../rule.js';

/**
 * A changed condition may refuse what it accepted (producers) and accept what it refused (readers that
 * relied on it): which, the diff cannot decide for CEL in general, so it names both.
 */
export const dataRuleChanged: Rule<'rule-changed'> = {
  id: 'data-rule-changed',
  severity: 'breaking',
  breaks: 'both',
  description:
    'A data rule changed its expression: payloads sent today may break it, or pass what it refused.',
  hint: 'Keep the expression, or change it in a new event version that producers and consumers move to.',
  check(change) {
    if (!change.before || !change.after || change.before.expr === change.after.expr) return undefined;
    return `Data rule ${code(change.after.name)} changed from ${code(change.before.expr)} to ${code(change.after.expr)}.`;
  },
};
