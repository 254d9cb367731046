import { fieldSummary, type Rule, subject } from '../rule.js';

/** The one way an existing version may grow: producers may send it, consumers ignore what they do not know. */
export const optionalFieldAdded: Rule<'field-added'> = {
  id: 'optional-field-added',
  severity: 'non-breaking',
  breaks: 'none',
  description:
    'An optional field was added: existing payloads stay valid and consumers ignore fields they do not read.',
  hint: 'Nothing to do; consumers may start reading the field when producers send it.',
  check(change) {
    if (change.field.required) return undefined;
    return `New ${subject(change)} (${fieldSummary(change.field)}).`;
  },
};
