import { innermost } from '../catalogue-index.js';
import { code, type LintRule } from '../rule.js';

/** The case style of a value: what mixing in one enum is judged by. */
function styleOf(value: string): string {
  if (/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(value)) return 'snake_case';
  if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(value)) return 'UPPER_CASE';
  if (/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(value)) return 'kebab-case';
  if (/^[a-z][a-z0-9]*([A-Z][a-z0-9]*)+$/.test(value)) return 'camelCase';
  if (/^[A-Z][a-z0-9]+([A-Z][a-z0-9]*)*$/.test(value)) return 'PascalCase';
  return 'other';
}

/**
 * String enum values in one case. With a configured pattern every value must match it; without one,
 * the values of one enum must share a style (a single word fits snake_case and UPPER_CASE alike).
 */
export const enumValueCase: LintRule = {
  id: 'enum-value-case',
  description:
    'The string values of one enum mix case styles (active, Closed, PENDING), or do not match the configured pattern.',
  severity: 'warning',
  hint: 'Spell the values in one style in a new version (existing values are part of the contract), or set lint.rules.enum-value-case.pattern.',
  check(ctx) {
    const configured = ctx.pattern(this);
    const reports = [];
    for (const use of ctx.index.uses) {
      const type = innermost(use.field.type);
      if (!('enum' in type) || !type.enum) continue;
      const values = type.enum.filter((value): value is string => typeof value === 'string');
      if (configured) {
        const bad = values.filter((value) => !configured.test(value));
        if (bad.length > 0)
          reports.push({
            message: `Enum values of field ${code(use.field.name)} do not match ${code(configured.source)}: ${bad.map(code).join(', ')}.`,
            location: use.field.source,
            subject: use.subject,
          });
        continue;
      }
      const styles = new Map<string, string[]>();
      for (const value of values) {
        // One lower-case or upper-case word fits either snake style: it mixes with nothing.
        const style = /^[a-z0-9]+$/.test(value)
          ? 'snake_case'
          : /^[A-Z0-9]+$/.test(value)
            ? 'UPPER_CASE'
            : styleOf(value);
        styles.set(style, [...(styles.get(style) ?? []), value]);
      }
      if (styles.size < 2) continue;
      const listed = [...styles].map(
        ([style, list]) => `${style} (${list.slice(0, 3).map(code).join(', ')})`,
      );
      reports.push({
        message: `Enum values of field ${code(use.field.name)} of ${use.owner.kind} ${code(use.owner.name)} mix case styles: ${listed.join('; ')}.`,
        location: use.field.source,
        subject: use.subject,
      });
    }
    return reports;
  },
};
