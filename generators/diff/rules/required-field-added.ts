import { type Rule, subject, typeSummary } from '../rule.js';

/** Payloads valid yesterday lack the field today. */
export const requiredFieldAdded: Rule<'field-added'> = {
  id: 'required-field-added',
  severity: 'breaking',
  breaks: 'producers',
  description: 'A required field was added: payloads that producers send today lack it and fail validation.',
  hint: 'Add the field as optional, or add it as required in a new event version.',
  check(change) {
    if (!change.field.required) return undefined;
    return `New required ${subject(change)} (${typeSummary(change.field.type)}).`;
  },
};
