import { code, deprecationNote, type Rule } from '../rule.js';

/** A deprecated event version gone from the catalogue (or from its group's package): the notice was given. */
export const eventRemoved: Rule<'event-removed'> = {
  id: 'event-removed',
  severity: 'breaking',
  breaks: 'both',
  description:
    'A deprecated event version was removed: consumers subscribed to it never get it again, producers still emitting it emit an undocumented event.',
  hint: 'Make sure no producer emits the version and no consumer waits for it any more.',
  check(change) {
    // One removal is one finding: without notice it is `event-removed-without-deprecation`'s.
    if (!change.before.deprecated) return undefined;
    const since = `deprecated since ${change.before.deprecated.since}`;
    const note = deprecationNote(change.before.deprecated);
    if (change.movedTo) {
      return `Event ${code(change.event)} (${since}) moved to group ${code(change.movedTo)}: it is gone from this group's package.${note}`;
    }
    return `Event ${code(change.event)} was removed (${since}).${note}`;
  },
};
