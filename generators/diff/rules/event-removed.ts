import { code, type Rule } from '../rule.js';

/** An event version gone from the catalogue (or from its group's package). */
export const eventRemoved: Rule = {
  id: 'event-removed',
  severity: 'breaking',
  breaks: 'both',
  description:
    'An event version was removed: consumers subscribed to it never get it again, producers still emitting it emit an undocumented event.',
  check(change) {
    if (change.kind !== 'event-removed') return undefined;
    if (change.movedTo) {
      return `Event ${code(change.event)} moved to group ${code(change.movedTo)}: it is gone from this group's package.`;
    }
    const notice = change.before.deprecated ? ` (deprecated since ${change.before.deprecated.since})` : '';
    return `Event ${code(change.event)} was removed${notice}.`;
  },
};
