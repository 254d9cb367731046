import { ownerText } from '../catalogue-index.js';
import { isLikelyMisspelling } from '../helpers.js';
import { at, code, type LintReport, type LintRule, plural } from '../rule.js';

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
          if (!isLikelyMisspelling(a, b)) continue;
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
