import { capitalize, fieldSummary, type Rule, subject } from '../rule.js';

/** A rename is reported as this plus an added field: to a payload the two are the same. */
export const fieldRemoved: Rule = {
  id: 'field-removed',
  severity: 'breaking',
  breaks: 'both',
  description:
    'A field was removed (or renamed): consumers reading it lose it, producers still sending it fail the closed schema.',
  check(change) {
    if (change.kind !== 'field-removed') return undefined;
    const capital = capitalize(subject(change));
    return `${capital} (${fieldSummary(change.field)}) was removed.`;
  },
};
