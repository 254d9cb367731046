import { capitalize, code, type Rule, subject } from '../rule.js';

/** Any string was fine until now. */
export const formatAdded: Rule<'format-changed'> = {
  id: 'format-added',
  severity: 'breaking',
  breaks: 'producers',
  description: 'A string field gained a format: strings producers send today may not match it.',
  hint: 'Check that every producer sends strings in the format, or add it in a new event version.',
  check(change) {
    if (change.before || !change.after) return undefined;
    return `${capitalize(subject(change))} now has format ${code(change.after)}.`;
  },
};
