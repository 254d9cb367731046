import { capitalize, missing, type Rule, subject, valueList } from '../rule.js';

/** Additive for the schema, yet a consumer's `switch` over the values meets one it has no case for. */
export const enumValueAdded: Rule<'enum-changed'> = {
  id: 'enum-value-added',
  severity: 'breaking',
  breaks: 'consumers',
  description:
    'An enum value was added: consumers that switch on the field meet a value they have no case for.',
  hint: 'Make sure consumers have a case for the new value (or a default) before producers send it.',
  check(change) {
    if (!change.before || !change.after) return undefined;
    const fresh = missing(change.after, change.before);
    if (fresh.length === 0) return undefined;
    return `${capitalize(subject(change))} now also allows ${valueList(fresh)}: consumers that switch on it must handle ${fresh.length === 1 ? 'it' : 'them'}.`;
  },
};
