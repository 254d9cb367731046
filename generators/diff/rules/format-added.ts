import { capitalize, code, type Rule, subject } from '../rule.js';

/** Any string was fine until now. */
export const formatAdded: Rule = {
  id: 'format-added',
  severity: 'breaking',
  breaks: 'producers',
  description: 'A string field gained a format: strings producers send today may not match it.',
  check(change) {
    if (change.kind !== 'format-changed' || change.before || !change.after) return undefined;
    return `${capitalize(subject(change))} now has format ${code(change.after)}.`;
  },
};
