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

/**
 * How `b` differs from `a` by one typing slip: a letter left out or doubled (`adress`, `address`), or
 * two letters swapped (`recieved`). A letter replaced by another is not counted: two real words
 * often differ so (`content`, `consent`; `is_main`, `is_gain`).
 */
function oneSlip(a: string, b: string): 'insertion' | 'transposition' | undefined {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (long.length === short.length + 1) {
    if (short.slice(i) !== long.slice(i + 1)) return undefined;
    // An `s` at the end of a word is a plural (`reading`, `readings_count`), not a slip.
    const ending = i + 1 === long.length || long[i + 1] === '_';
    return long[i] === 's' && ending ? undefined : 'insertion';
  }
  if (long.length !== short.length || i >= short.length - 1) return undefined;
  return short[i] === long[i + 1] && short[i + 1] === long[i] && short.slice(i + 2) === long.slice(i + 2)
    ? 'transposition'
    : undefined;
}

/**
 * Two names one slip apart, or spelt with other separators (`postcode`, `post_code`): what
 * field-name-near-duplicate reports. Not a typo:
 * names shorter than five letters (`from`, `form`), or a slip in a digit (`line1`, `line12`).
 */
export function isLikelyMisspelling(a: string, b: string): boolean {
  if (a.replaceAll('_', '') === b.replaceAll('_', '')) return true;
  if (Math.min(a.length, b.length) < 5) return false;
  if (a.replace(/\d/g, '') === b.replace(/\d/g, '')) return false;
  return oneSlip(a, b) !== undefined;
}
