import { typeNotation } from '../../model.js';
import { ownerText } from '../catalogue-index.js';
import { byType, isGenericName, isIdLike, minorityReports } from '../helpers.js';
import { at, code, type LintReport, type LintRule, plural } from '../rule.js';

/** The same field name with different types across events and shapes (ids: id-type-mismatch). */
export const fieldTypeMismatch: LintRule = {
  id: 'field-type-mismatch',
  description:
    'A field name has different kinds of type in different events or shapes: consumers that share code for it break on one of them.',
  severity: 'warning',
  hint: 'Use one type for one name (in a new version of the odd one out), or give the odd field a name that says what differs.',
  check(ctx) {
    const reports: LintReport[] = [];
    for (const [name, uses] of ctx.index.byName) {
      if (isIdLike(name) || isGenericName(name) || uses.length < 2) continue;
      // A free object beside shaped ones is free-object-with-shape's finding, not a second one here.
      const shaped = uses.some((use) => /^\[*[A-Z]/.test(typeNotation(use.field.type)));
      const compared = shaped
        ? uses.filter((use) => !/^\[*object\]*$/.test(typeNotation(use.field.type)))
        : uses;
      // Different named shapes under one name are one concept in different states (the shapes say how
      // they differ): only a difference of kind (string or shape, array or not) is a mismatch.
      const groups = byType(compared, (use) =>
        typeNotation(use.field.type).replace(/[A-Z][A-Za-z0-9]*/, 'Shape'),
      );
      if (groups.length < 2) continue;
      reports.push(
        ...minorityReports(groups, (use, _kind, _major, majorUses) => {
          const model = majorUses[0]!;
          return `Field ${code(name)} is ${code(typeNotation(use.field.type))} in ${ownerText(use)} but ${code(typeNotation(model.field.type))} in ${plural(majorUses.length, 'other place')} (${ownerText(model)}, ${at(model.field.source)}).`;
        }),
      );
    }
    return reports;
  },
};
