import { type Field, typeNotation } from '../../model.js';
import { at, code, type LintReport, type LintRule } from '../rule.js';

/** What a payload version's contract is: every field's name, type, facets and whether required. */
function contract(fields: readonly Field[]): string {
  return JSON.stringify(
    fields
      .map((field) => [field.name, typeNotation(field.type), JSON.stringify(field.type), field.required])
      .sort(),
  );
}

/** A version whose payload is exactly the previous version's: a version bump that changes nothing. */
export const versionIdentical: LintRule = {
  id: 'version-identical',
  description:
    'An event version has exactly the payload of the version before it (same fields, types, formats, enums and required): consumers migrate for nothing.',
  severity: 'error',
  hint: 'Make the change the new version was created for, or drop the new version before it is released.',
  check(ctx) {
    const reports: LintReport[] = [];
    for (const versions of ctx.index.versions.values()) {
      for (let i = 1; i < versions.length; i++) {
        const [previous, event] = [versions[i - 1]!, versions[i]!];
        // Openness is part of the contract: a partial version closed by the next is a change.
        if ((previous.partial === undefined) !== (event.partial === undefined)) continue;
        if (contract(previous.fields) !== contract(event.fields)) continue;
        reports.push({
          message: `Event ${code(event.key)} has exactly the payload of ${code(previous.key)} (${at(previous.source)}).`,
          location: event.source,
          subject: `event ${event.key}`,
        });
      }
    }
    return reports;
  },
};
