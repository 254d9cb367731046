import { capitalize, code, type Rule, subject, valueList } from '../rule.js';

/** The closed list consumers switched on is gone. */
export const enumRemoved: Rule<'enum-changed'> = {
  id: 'enum-removed',
  severity: 'breaking',
  breaks: 'consumers',
  description:
    'A field lost its list of allowed values: consumers that switch on it may get any value of the type.',
  hint: 'Tell consumers that switch on the field to handle any value of its type, or keep the list.',
  check(change) {
    if (!change.before || change.after) return undefined;
    return `${capitalize(subject(change))} is no longer restricted to ${valueList(change.before)}: any ${code(change.scalar)} is valid.`;
  },
};
