import { capitalize, type Rule, subject } from '../rule.js';

/** Payloads that omit the field, valid until now, become invalid. */
export const optionalBecameRequired: Rule<'required-changed'> = {
  id: 'optional-became-required',
  severity: 'breaking',
  breaks: 'producers',
  description: 'An optional field became required: payloads that omit it, valid until now, fail validation.',
  hint: 'Keep the field optional, or make it required in a new event version.',
  check(change) {
    if (!change.after) return undefined;
    return `${capitalize(subject(change))} became required.`;
  },
};
