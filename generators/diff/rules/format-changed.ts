import { capitalize, code, type Rule, subject } from '../rule.js';

/** `date` and `date-time` values do not parse as each other. */
export const formatChanged: Rule<'format-changed'> = {
  id: 'format-changed',
  severity: 'breaking',
  breaks: 'both',
  description: 'A string field changed format: producers send, and consumers parse, the old one.',
  hint: 'Keep the old format, or change it in a new event version that producers and consumers move to.',
  check(change) {
    if (!change.before || !change.after) return undefined;
    return `${capitalize(subject(change))} changed format from ${code(change.before)} to ${code(change.after)}.`;
  },
};
