import { code, type Rule } from '../rule.js';

/** Readers that relied on the rule may now receive payloads it used to refuse. */
export const dataRuleRemoved: Rule<'rule-changed'> = {
  id: 'data-rule-removed',
  severity: 'breaking',
  breaks: 'consumers',
  description: 'A data rule was removed: consumers that relied on it may now receive payloads it refused.',
  hint: 'Keep the rule, or drop it in a new event version that consumers move to.',
  check(change) {
    if (!change.before || change.after) return undefined;
    return `Data rule ${code(change.before.name)} was removed: ${code(change.before.expr)} no longer holds.`;
  },
};
