import { ownerText } from '../catalogue-index.js';
import { at, code, type LintReport, type LintRule, plural } from '../rule.js';

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
 * Two names one slip apart, or spelt with other separators (`postcode`, `post_code`). Not a typo:
 * names shorter than five letters (`from`, `form`), or a slip in a digit (`line1`, `line12`).
 */
function likelyMisspelling(a: string, b: string): boolean {
  if (a.replaceAll('_', '') === b.replaceAll('_', '')) return true;
  if (Math.min(a.length, b.length) < 5) return false;
  if (a.replace(/\d/g, '') === b.replace(/\d/g, '')) return false;
  return oneSlip(a, b) !== undefined;
}

/** Keys two names one edit apart share: the name with one letter dropped, and the name itself. */
function neighbourKeys(name: string): string[] {
  const keys = [name, `_${name.replaceAll('_', '')}`];
  for (let i = 0; i < name.length; i++) keys.push(name.slice(0, i) + name.slice(i + 1));
  return keys;
}

/** A field name one typo away from a name used more often: most likely a misspelling of it. */
export const fieldNameNearDuplicate: LintRule = {
  id: 'field-name-near-duplicate',
  description:
    'A field name is one typo (or one underscore) away from a name used more often elsewhere: most likely a misspelling of it.',
  severity: 'warning',
  hint: 'Spell the field like everywhere else (in a new version), or rename one of them so the two clearly differ.',
  check(ctx) {
    const names = [...ctx.index.byName.keys()].sort();
    // Candidates from shared deletion keys: near-linear in the number of names, not quadratic.
    const byKey = new Map<string, string[]>();
    for (const name of names) {
      for (const key of new Set(neighbourKeys(name))) {
        const list = byKey.get(key);
        if (list) list.push(name);
        else byKey.set(key, [name]);
      }
    }
    const reports: LintReport[] = [];
    const seen = new Set<string>();
    for (const group of byKey.values()) {
      if (group.length < 2) continue;
      for (let i = 0; i < group.length; i++) {
        for (let j = i + 1; j < group.length; j++) {
          const [a, b] = [group[i]!, group[j]!];
          if (a === b || seen.has(`${a}\0${b}`)) continue;
          seen.add(`${a}\0${b}`);
          if (!likelyMisspelling(a, b)) continue;
          const usesA = ctx.index.byName.get(a)!;
          const usesB = ctx.index.byName.get(b)!;
          // The rarer spelling is the suspect; on a tie, the later one in the alphabet.
          const [odd, common] = usesA.length < usesB.length ? [a, b] : [b, a];
          const commonUses = ctx.index.byName.get(common)!;
          for (const use of ctx.index.byName.get(odd)!) {
            reports.push({
              message: `Field ${code(odd)} of ${ownerText(use)} looks like a misspelling of ${code(common)} (${plural(commonUses.length, 'use')}, first in ${ownerText(commonUses[0]!)}, ${at(commonUses[0]!.field.source)}).`,
              location: use.field.source,
              subject: use.subject,
            });
          }
        }
      }
    }
    return reports.sort((x, y) => (x.subject < y.subject ? -1 : x.subject > y.subject ? 1 : 0));
  },
};
