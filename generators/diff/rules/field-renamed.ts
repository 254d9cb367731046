import { capitalize, code, fieldSummary, type Rule, subject } from '../rule.js';

/** To a payload a rename is a removal plus an addition; naming both tells the reader what happened. */
export const fieldRenamed: Rule<'field-renamed'> = {
  id: 'field-renamed',
  severity: 'breaking',
  breaks: 'both',
  description:
    'A field was removed and one of the same type added beside it, most likely a rename: consumers reading the old name lose it, producers still sending it fail the closed schema.',
  hint: 'Keep the old name beside the new one, or rename the field in a new event version.',
  check(change) {
    const to = change.via ? code(change.to.name) : code(change.toAttr);
    return `${capitalize(subject(change))} (${fieldSummary(change.field)}) was removed and ${to} (${fieldSummary(change.to)}) added: likely a rename.`;
  },
};
