import { capitalize, type Rule, subject, valueList } from '../rule.js';

/** Any value of the type was fine until now. */
export const enumAdded: Rule<'enum-changed'> = {
  id: 'enum-added',
  severity: 'breaking',
  breaks: 'producers',
  description: 'A field was restricted to a list of values: values producers send today may not be in it.',
  hint: 'Add the values producers send today to the list, or restrict the field in a new event version.',
  check(change) {
    if (change.before || !change.after) return undefined;
    return `${capitalize(subject(change))} is now restricted to ${valueList(change.after)}.`;
  },
};
