import type { FieldUse } from './catalogue-index.js';
import type { LintReport } from './rule.js';

/** snake_case, from the words of a camelCase, PascalCase or kebab-case name. */
export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '')
    .toLowerCase();
}

/** `id`, `user_id`, `user_ids`: names id-type-mismatch judges (field-type-mismatch leaves them alone). */
export function isIdLike(name: string): boolean {
  return name === 'id' || /_ids?$/.test(name);
}

/**
 * Uses grouped by type, the most used type first (ties: the one written first, as uses are in source
 * order): the uses of any other type are the ones to report.
 */
export function byType(uses: readonly FieldUse[], typeOf: (use: FieldUse) => string): [string, FieldUse[]][] {
  const groups = new Map<string, FieldUse[]>();
  for (const use of uses) {
    const key = typeOf(use);
    const list = groups.get(key);
    if (list) list.push(use);
    else groups.set(key, [use]);
  }
  return [...groups].sort((a, b) => b[1].length - a[1].length);
}

/** One report per use whose type is not the one most uses have. */
export function minorityReports(
  groups: [string, FieldUse[]][],
  describe: (use: FieldUse, type: string, major: string, majorUses: FieldUse[]) => string,
): LintReport[] {
  const [major, majorUses] = groups[0]!;
  const reports: LintReport[] = [];
  for (const [type, uses] of groups.slice(1)) {
    for (const use of uses)
      reports.push({
        message: describe(use, type, major, majorUses),
        location: use.field.source,
        subject: use.subject,
      });
  }
  return reports;
}

/**
 * Names too generic to say two fields hold the same thing: `changes` of an account and of a tariff,
 * `value` of a meter reading and of a setting. The consistency rules do not compare them.
 */
export function isGenericName(name: string): boolean {
  return GENERIC_NAMES.has(name) || /^(old|new|previous|current)_(value|values)$/.test(name);
}

const GENERIC_NAMES = new Set([
  'attributes',
  'changes',
  'code',
  'context',
  'data',
  'details',
  'extra',
  'key',
  'metadata',
  'payload',
  'properties',
  'value',
  'values',
]);
