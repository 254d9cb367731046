import { code, type LintReport, type LintRule } from '../rule.js';

/** A deprecated event that names no replacement and says nothing about what to do instead. */
export const deprecatedWithoutReplacement: LintRule = {
  id: 'deprecated-without-replacement',
  description:
    'A deprecated event names no replacement (`replaced_by`) and has no note: its consumers are told to stop but not what to do.',
  severity: 'error',
  hint: 'Add `replaced_by: <event key>` to the deprecation, or a `note` saying what consumers should do instead.',
  check(ctx) {
    const reports: LintReport[] = [];
    for (const key of Object.keys(ctx.catalogue.events).sort()) {
      const event = ctx.catalogue.events[key]!;
      const deprecated = event.deprecated;
      if (!deprecated || deprecated.replacedBy || deprecated.note?.trim()) continue;
      reports.push({
        message: `Event ${code(key)} is deprecated since ${deprecated.since} without a replacement or a note.`,
        location: event.source,
        subject: `event ${key}`,
      });
    }
    return reports;
  },
};
