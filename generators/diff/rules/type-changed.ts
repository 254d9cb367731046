import { capitalize, type Rule, subject, typeSummary } from '../rule.js';

/** Any change of JSON layout: scalar kind, array depth, scalar to array, free object to shape and back. */
export const typeChanged: Rule<'type-changed'> = {
  id: 'type-changed',
  severity: 'breaking',
  breaks: 'both',
  description:
    'A field changed type (scalar kind, array item type, scalar to array, free object to shape or back): old and new payloads are incompatible.',
  hint: 'Add a field with the new type beside the old one, or change the type in a new event version.',
  check(change) {
    let note = '';
    if (change.before.kind === 'object' && change.after.kind === 'shape')
      note = ' (a free object now has listed fields)';
    if (change.before.kind === 'shape' && change.after.kind === 'object')
      note = ' (listed fields became a free object)';
    return `${capitalize(subject(change))} changed type from ${typeSummary(change.before)} to ${typeSummary(change.after)}${note}.`;
  },
};
