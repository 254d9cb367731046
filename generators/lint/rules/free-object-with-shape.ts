import { typeNotation } from '../../model.js';
import { ownerText } from '../catalogue-index.js';
import { isGenericName } from '../helpers.js';
import { at, code, type LintReport, type LintRule } from '../rule.js';

/** A free object (`object`, any keys) where other events give the same field a named shape. */
export const freeObjectWithShape: LintRule = {
  id: 'free-object-with-shape',
  description:
    'A field is a free object (`object`, any keys) where other events or shapes give the same field a named shape: its contents go unchecked here.',
  severity: 'warning',
  hint: 'Type it with the shape (in a new version: listing fields is a breaking change), or rename it if it holds something else.',
  check(ctx) {
    const reports: LintReport[] = [];
    for (const [name, uses] of ctx.index.byName) {
      if (isGenericName(name)) continue;
      const shaped = uses.filter((use) => /^\[*[A-Z]/.test(typeNotation(use.field.type)));
      if (shaped.length === 0) continue;
      for (const use of uses) {
        const notation = typeNotation(use.field.type);
        if (!/^\[*object\]*$/.test(notation)) continue;
        const model = shaped[0]!;
        reports.push({
          message: `Field ${code(name)} of ${ownerText(use)} is a free ${code(notation)}, but ${code(typeNotation(model.field.type))} in ${ownerText(model)} (${at(model.field.source)}).`,
          location: use.field.source,
          subject: use.subject,
        });
      }
    }
    return reports;
  },
};
