import { type FieldUse, innermost, ownerText } from '../catalogue-index.js';
import { byType, minorityReports, toSnakeCase } from '../helpers.js';
import { at, code, type LintReport, type LintRule, plural } from '../rule.js';

/**
 * The entity an id names: `user` for `user_id` and `user_ids`, and for `id` in shape `User` (its
 * snake_case name). An `id` of an event has no entity to compare with.
 */
function entityOf(use: FieldUse): string | undefined {
  const name = use.field.name;
  if (name === 'id') return use.owner.kind === 'shape' ? toSnakeCase(use.owner.name) : undefined;
  const match = /^(.+)_ids?$/.exec(name);
  return match ? match[1] : undefined;
}

/**
 * One entity's id typed inconsistently: `user_id` an integer here and a string there, or `ledger_id`
 * a string while shape `Ledger`'s `id` is an integer. Arrays (`user_ids`) are judged by their items.
 */
export const idTypeMismatch: LintRule = {
  id: 'id-type-mismatch',
  description:
    "An entity's id is typed inconsistently (user_id an integer in one event and a string in another, or ledger_id unlike shape Ledger's id).",
  severity: 'warning',
  hint: 'Give every reference to one entity the type of its id (in a new version of the odd one out).',
  check(ctx) {
    const byEntity = new Map<string, FieldUse[]>();
    for (const use of ctx.index.uses) {
      const entity = entityOf(use);
      if (!entity) continue;
      const list = byEntity.get(entity);
      if (list) list.push(use);
      else byEntity.set(entity, [use]);
    }
    const reports: LintReport[] = [];
    for (const [entity, uses] of byEntity) {
      const groups = byType(uses, (use) => innermost(use.field.type).kind);
      if (groups.length < 2) continue;
      reports.push(
        ...minorityReports(
          groups,
          (use, type, major, majorUses) =>
            `The ${code(entity)} id ${code(use.field.name)} of ${ownerText(use)} is ${code(type)}, but ${code(major)} in ${plural(majorUses.length, 'other place')} (${code(majorUses[0]!.field.name)} of ${ownerText(majorUses[0]!)}, ${at(majorUses[0]!.field.source)}).`,
        ),
      );
    }
    return reports;
  },
};
