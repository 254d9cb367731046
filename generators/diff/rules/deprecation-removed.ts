import { code, type Rule } from '../rule.js';

/** A withdrawn notice: the version stays. */
export const deprecationRemoved: Rule<'deprecation-removed'> = {
  id: 'deprecation-removed',
  severity: 'non-breaking',
  breaks: 'none',
  description:
    'A deprecation was withdrawn: the event version is supported again; nothing changes for payloads.',
  hint: 'Nothing to do; tell consumers who started moving off the version that it stays.',
  check(change) {
    return `${code(change.event)} is no longer deprecated (was since ${change.before.since}).`;
  },
};
