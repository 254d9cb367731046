import { code, deprecationNote, type Rule } from '../rule.js';

/** Since, replacement or note of an existing notice. */
export const deprecationChanged: Rule<'deprecation-changed'> = {
  id: 'deprecation-changed',
  severity: 'docs',
  breaks: 'none',
  description: 'The deprecation notice of an event version changed (since, replacement or note).',
  hint: 'Tell the consumers of the event version when the date or replacement they planned for moved.',
  check(change) {
    const by = change.after.replacedBy ? `, replaced by ${code(change.after.replacedBy)}` : '';
    return `Deprecation notice of ${code(change.event)} changed: now since ${change.after.since}${by}.${deprecationNote(change.after)}`;
  },
};
