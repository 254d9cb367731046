import { code, type Rule } from '../rule.js';

/** Only loosens: every payload valid before stays valid. */
export const objectOpened: Rule<'openness-changed'> = {
  id: 'object-opened',
  severity: 'non-breaking',
  breaks: 'none',
  description:
    'A closed event schema became open (partial): unlisted fields are now accepted; every payload valid before stays valid.',
  hint: 'Nothing to do; consumers that reject unknown fields should ignore them instead.',
  check(change) {
    if (change.after !== 'open') return undefined;
    return `${code(change.event)} is now partial: its schema accepts fields it does not list.`;
  },
};
