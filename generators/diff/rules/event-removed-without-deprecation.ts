import { code, type Rule } from '../rule.js';

/** Versioning: nothing is removed without notice, and a deprecation is that notice. */
export const eventRemovedWithoutDeprecation: Rule = {
  id: 'event-removed-without-deprecation',
  severity: 'breaking',
  breaks: 'consumers',
  description: 'An event version was removed without being deprecated first, so its consumers had no notice.',
  check(change) {
    if (change.kind !== 'event-removed' || change.before.deprecated) return undefined;
    return `${code(change.event)} was not deprecated before it was removed: mark it \`deprecated\` (with \`replaced_by\`) in a release first.`;
  },
};
