import { capitalize, type Rule, subject } from '../rule.js';

/** Payloads that omit the field, valid until now, become invalid. */
export const optionalBecameRequired: Rule<'required-changed'> = {
  id: 'optional-became-required',
  severity: 'breaking',
  breaks: 'producers',
  description: 'An optional field became required: payloads that omit it, valid until now, fail validation.',
  check(change) {
    if (!change.after) return undefined;
    return `${capitalize(subject(change))} became required.`;
  },
};
