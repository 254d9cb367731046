import { toSnakeCase } from '../helpers.js';
import { code, type LintRule } from '../rule.js';

/** Field names in one case, snake_case by default (configurable). */
export const fieldNameCase: LintRule = {
  id: 'field-name-case',
  description:
    'A field name is not in the catalogue case, snake_case by default: payload keys read alike everywhere.',
  severity: 'warning',
  hint: 'Use the catalogue case in new fields and new versions, or set lint.rules.field-name-case.pattern.',
  pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)*$',
  check(ctx) {
    const pattern = ctx.pattern(this)!;
    return ctx.index.uses
      .filter((use) => !pattern.test(use.field.name))
      .map((use) => {
        const snake = toSnakeCase(use.field.name);
        const suggestion = pattern.test(snake) && snake !== use.field.name ? ` (${code(snake)})` : '';
        return {
          message: `Field ${code(use.field.name)} of ${use.owner.kind} ${code(use.owner.name)} does not match ${code(pattern.source)}${suggestion}.`,
          location: use.field.source,
          subject: use.subject,
        };
      });
  },
};
