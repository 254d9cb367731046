import { code, type LintReport, type LintRule } from '../rule.js';

/** Groups, events, shapes and fields without a description (off by default: few catalogues start with them). */
export const missingDescription: LintRule = {
  id: 'missing-description',
  description:
    'A group, event, shape or field has no description: readers of the docs, the types and the schemas get only its name.',
  severity: 'off',
  hint: 'Add a `description:` saying what it is and when it is sent or set.',
  check(ctx) {
    const { groups, events, shapes } = ctx.catalogue;
    const reports: LintReport[] = [];
    for (const group of groups) {
      if (group.description) continue;
      reports.push({
        message: `Group ${code(group.slug)} has no description.`,
        location: group.source,
        subject: `group ${group.slug}`,
      });
    }
    for (const key of Object.keys(events).sort()) {
      const event = events[key]!;
      if (event.description) continue;
      reports.push({
        message: `Event ${code(key)} has no description.`,
        location: event.source,
        subject: `event ${key}`,
      });
    }
    for (const name of Object.keys(shapes).sort()) {
      if (shapes[name]!.description) continue;
      reports.push({
        message: `Shape ${code(name)} has no description.`,
        location: shapes[name]!.source,
        subject: `shape ${name}`,
      });
    }
    for (const use of ctx.index.uses) {
      if (use.field.description) continue;
      reports.push({
        message: `Field ${code(use.field.name)} of ${use.owner.kind} ${code(use.owner.name)} has no description.`,
        location: use.field.source,
        subject: use.subject,
      });
    }
    return reports;
  },
};
