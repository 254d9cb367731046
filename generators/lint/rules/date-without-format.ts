import { innermost } from '../catalogue-index.js';
import { code, type LintReport, type LintRule } from '../rule.js';

/** Names that say "a date or a time": `created_at`, `start_date`, `moved_on`, `timestamp`, `effective_from`. */
const DATE_LIKE =
  /(^|_)(at|dates?|on|timestamps?|datetimes?)$|^(date|timestamp)(_|$)|(^|_)date_of_|^(effective|valid)_(from|to|until)$/;

/** `_on` names that are not dates. */
const NOT_DATES = new Set([
  'based_on',
  'depends_on',
  'relies_on',
  'turned_on',
  'switched_on',
  'logged_on',
  'add_on',
]);

/** A date- or time-named field that is a plain string: its format is neither documented nor checked. */
export const dateWithoutFormat: LintRule = {
  id: 'date-without-format',
  description:
    'A field named like a date or a time (created_at, start_date, moved_on) is a plain string without `format: date` or `date-time`: neither documented nor checked.',
  severity: 'warning',
  hint: 'Add `format: date-time` (or `date`); on an existing version that is a breaking change for producers, so do it in the next version.',
  check(ctx) {
    const reports: LintReport[] = [];
    for (const use of ctx.index.uses) {
      const name = use.field.name;
      if (!DATE_LIKE.test(name) || NOT_DATES.has(name)) continue;
      const type = innermost(use.field.type);
      if (type.kind !== 'string' || type.format !== undefined || type.enum !== undefined) continue;
      reports.push({
        message: `Field ${code(name)} of ${use.owner.kind} ${code(use.owner.name)} is named like a date but is a plain string.`,
        location: use.field.source,
        subject: use.subject,
      });
    }
    return reports;
  },
};
