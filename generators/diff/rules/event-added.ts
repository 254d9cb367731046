import { code, type Rule } from '../rule.js';

/** A new event version: consumers may subscribe, nobody has to. */
export const eventAdded: Rule<'event-added'> = {
  id: 'event-added',
  severity: 'non-breaking',
  breaks: 'none',
  description: 'An event version was added; nothing that exists changes.',
  hint: 'Nothing to do; document who produces the new event version and who may consume it.',
  check(change) {
    if (change.movedFrom)
      return `Event ${code(change.event)} moved here from group ${code(change.movedFrom)}.`;
    if (change.previousVersions.length > 0) {
      const previous = change.previousVersions.map(code).join(', ');
      return `New version ${code(change.event)} of ${code(change.after.type)} (beside ${previous}).`;
    }
    return `New event ${code(change.event)}.`;
  },
};
