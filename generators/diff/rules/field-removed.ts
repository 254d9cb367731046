import { capitalize, fieldSummary, type Rule, subject } from '../rule.js';

/** A field gone with no same-typed field added beside it (that pair is `field-renamed`). */
export const fieldRemoved: Rule<'field-removed'> = {
  id: 'field-removed',
  severity: 'breaking',
  breaks: 'both',
  description:
    'A field was removed: consumers reading it lose it, producers still sending it fail the closed schema.',
  hint: 'Keep the field (deprecate it in its description), or remove it in a new event version.',
  check(change) {
    const capital = capitalize(subject(change));
    return `${capital} (${fieldSummary(change.field)}) was removed.`;
  },
};
