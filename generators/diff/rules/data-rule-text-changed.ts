import { code, type Rule } from '../rule.js';

/** The same condition: only what the 400 body says of a broken rule, or the rule's name, changed. */
export const dataRuleTextChanged: Rule<'rule-changed'> = {
  id: 'data-rule-text-changed',
  severity: 'non-breaking',
  breaks: 'none',
  description:
    'A data rule kept its expression but changed its name, message or attr: payloads are judged the same.',
  hint: 'Nothing to do for payloads; a client matching the error message or attr reads the new one.',
  check(change) {
    const { before, after } = change;
    if (!before || !after || before.expr !== after.expr) return undefined;
    const what = [
      before.name !== after.name ? `was renamed to ${code(after.name)}` : '',
      before.message !== after.message ? `changed its message to "${after.message}"` : '',
      before.attr !== after.attr ? `now names ${code(after.attr || '(the payload)')}` : '',
    ].filter(Boolean);
    return `Data rule ${code(before.name)} ${what.join(', ')}.`;
  },
};
