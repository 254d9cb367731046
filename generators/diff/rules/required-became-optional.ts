import { capitalize, type Rule, subject } from '../rule.js';

/** Consumers read required fields without checking for them. */
export const requiredBecameOptional: Rule<'required-changed'> = {
  id: 'required-became-optional',
  severity: 'breaking',
  breaks: 'consumers',
  description: 'A required field became optional: consumers relied on it always being there.',
  hint: 'Keep the field required, or make it optional in a new event version that consumers handle.',
  check(change) {
    if (change.after) return undefined;
    return `${capitalize(subject(change))} became optional: it may now be omitted.`;
  },
};
