import { code, deprecationNote, type Rule } from '../rule.js';

/** The notice versioning requires before a removal. */
export const deprecationAdded: Rule<'deprecation-added'> = {
  id: 'deprecation-added',
  severity: 'non-breaking',
  breaks: 'none',
  description:
    'An event version was deprecated: a notice to move off it before it is removed; nothing changes yet.',
  hint: 'Name the replacement (`replaced_by`) or say in a `note` what to do, and give consumers time before removing the version.',
  check(change) {
    const by = change.after.replacedBy ? `; use ${code(change.after.replacedBy)} instead` : '';
    return `${code(change.event)} is deprecated since ${change.after.since}${by}.${deprecationNote(change.after)}`;
  },
};
