import { code, type Rule } from '../rule.js';

/** A partial (open) event now lists its payload in full and rejects unlisted fields. */
export const objectClosed: Rule<'openness-changed'> = {
  id: 'object-closed',
  severity: 'breaking',
  breaks: 'producers',
  description:
    'An open (partial) event schema became closed: payloads carrying fields it does not list, valid until now, fail validation.',
  hint: 'Keep the schema open, or close it in a new event version once producers send only listed fields.',
  check(change) {
    if (change.after !== 'closed') return undefined;
    return `${code(change.event)} is no longer partial: its schema now rejects fields it does not list.`;
  },
};
