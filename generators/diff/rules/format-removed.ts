import { capitalize, code, type Rule, subject } from '../rule.js';

/** Like a required field becoming optional: a guarantee consumers parsed on is gone. */
export const formatRemoved: Rule<'format-changed'> = {
  id: 'format-removed',
  severity: 'breaking',
  breaks: 'consumers',
  description:
    'A string field lost its format: consumers that parse it as a date or date-time may get any string.',
  hint: 'Tell consumers that parse the field not to rely on the format any more, or keep it.',
  check(change) {
    if (!change.before || change.after) return undefined;
    return `${capitalize(subject(change))} no longer has format ${code(change.before)}: any string is valid.`;
  },
};
