import { capitalize, missing, type Rule, subject, valueList } from '../rule.js';

/** Producers may still send the value; the schema now rejects it. */
export const enumValueRemoved: Rule<'enum-changed'> = {
  id: 'enum-value-removed',
  severity: 'breaking',
  breaks: 'producers',
  description: 'An enum value was removed: payloads carrying it, valid until now, fail validation.',
  hint: 'Keep the value, or stop sending it in a new event version and deprecate this one.',
  check(change) {
    if (!change.before || !change.after) return undefined;
    const gone = missing(change.before, change.after);
    if (gone.length === 0) return undefined;
    return `${capitalize(subject(change))} no longer allows ${valueList(gone)}.`;
  },
};
