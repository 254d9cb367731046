import { code, type Rule } from '../rule.js';

/** Versioning: nothing is removed without notice, and a deprecation is that notice. */
export const eventRemovedWithoutDeprecation: Rule<'event-removed'> = {
  id: 'event-removed-without-deprecation',
  severity: 'breaking',
  breaks: 'both',
  description:
    'An event version was removed (or moved to another group package) without being deprecated first: its consumers had no notice.',
  hint: 'Restore the event version and deprecate it first (`deprecated: {since, replaced_by}`); remove it in a later release.',
  check(change) {
    if (change.before.deprecated) return undefined;
    if (change.movedTo) {
      return `Event ${code(change.event)} moved to group ${code(change.movedTo)} without being deprecated first: it is gone from this group's package.`;
    }
    return `Event ${code(change.event)} was removed without being deprecated first.`;
  },
};
