import { majorOf } from '../catalogue-index.js';
import { code, type LintReport, type LintRule } from '../rule.js';

/** Versions of an event type that skip a number: v1 and v3 without v2. */
export const versionGap: LintRule = {
  id: 'version-gap',
  description:
    'The versions of an event type skip a number (v1 and v3, no v2): readers wonder whether a version went missing or was never released.',
  severity: 'warning',
  hint: 'Number the next version after the last one; if a version was removed on purpose, say so in the description of the one after it.',
  check(ctx) {
    const reports: LintReport[] = [];
    for (const versions of ctx.index.versions.values()) {
      const majors = [...new Set(versions.map((event) => majorOf(event.version)))];
      for (let i = 1; i < majors.length; i++) {
        const [before, now] = [majors[i - 1]!, majors[i]!];
        if (now - before <= 1) continue;
        const event = versions.find((version) => majorOf(version.version) === now)!;
        const previous = versions.findLast((version) => majorOf(version.version) === before)!;
        // Unless the description says why (the hint's way out), which a reader then sees.
        if (event.description && /\b(removed|withdrawn|skipped|never released)\b/i.test(event.description))
          continue;
        const missing =
          now - before === 2 ? `version ${now - 1} is` : `versions ${before + 1} to ${now - 1} are`;
        reports.push({
          message: `Event ${code(event.key)} follows ${code(previous.key)}: ${missing} missing for ${code(event.type)}.`,
          location: event.source,
          subject: `event ${event.key}`,
        });
      }
    }
    return reports;
  },
};
