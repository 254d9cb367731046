import { code, type Rule } from '../rule.js';

/** Payloads valid until now may break the new rule: producers must change what they send. */
export const dataRuleAdded: Rule<'rule-changed'> = {
  id: 'data-rule-added',
  severity: 'breaking',
  breaks: 'producers',
  description: 'A data rule was added to an existing version: payloads producers send today may break it.',
  hint: 'Add the rule in a new event version that producers move to, and deprecate this one.',
  check(change) {
    if (change.before || !change.after) return undefined;
    return `Data rule ${code(change.after.name)} was added: ${code(change.after.expr)}.`;
  },
};
