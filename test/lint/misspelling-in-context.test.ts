import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexCatalogue } from '../../generators/lint/catalogue-index.js';
import { resolveLintConfig } from '../../generators/lint/config.js';
import { isLikelyMisspelling } from '../../generators/lint/helpers.js';
import { lintCatalogue } from '../../generators/lint/lint.js';
import {
  editDistance,
  fieldNameMisspellingInContext,
} from '../../generators/lint/rules/field-name-misspelling-in-context.js';
import { groupWithoutOwner } from '../../generators/lint/rules/group-without-owner.js';
import { type CatalogueSourceFile, loadCatalogueFromSources } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';

/**
 * The Damerau-Levenshtein distance up to 2, by brute force: every string one and two edits (insert,
 * delete, replace, swap neighbours, over the strings' own letters) from `a`. The reference the rule's
 * distance must agree with; 3 stands for more than two.
 */
function reference(a: string, b: string): number {
  const letters = [...new Set([...a, ...b])];
  const next = (from: string): Set<string> => {
    const out = new Set<string>();
    for (let i = 0; i <= from.length; i++) {
      for (const c of letters) out.add(from.slice(0, i) + c + from.slice(i));
      if (i < from.length) {
        out.add(from.slice(0, i) + from.slice(i + 1));
        for (const c of letters) out.add(from.slice(0, i) + c + from.slice(i + 1));
      }
      if (i + 1 < from.length) out.add(from.slice(0, i) + from[i + 1] + from[i] + from.slice(i + 2));
    }
    return out;
  };
  if (a === b) return 0;
  const one = next(a);
  if (one.has(b)) return 1;
  for (const near of one) if (next(near).has(b)) return 2;
  return 3;
}

/** A catalogue of one group whose events have these field lists (and `teams.yaml` when given). */
function catalogueOf(lists: string[][], teams?: string): Catalogue {
  const events = lists
    .map(
      (names, i) =>
        `  g.event${i}-v1:\n    fields:\n${names.map((name) => `      ${name}: {type: string}\n`).join('')}`,
    )
    .join('');
  const files: CatalogueSourceFile[] = [
    { path: 'eventry.config.yaml', text: 'title: T\nversion: 1.0.0\nscope: "@t"\n' },
    { path: 'g.yaml', text: `group: {slug: g, title: G}\nevents:\n${events}` },
    ...(teams ? [{ path: 'teams.yaml', text: teams }] : []),
  ];
  const loaded = loadCatalogueFromSources(files);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  return loaded.catalogue;
}

const check = (catalogue: Catalogue) =>
  fieldNameMisspellingInContext.check({
    catalogue,
    index: indexCatalogue(catalogue),
    pattern: () => undefined,
  });

const word = fc.stringMatching(/^[a-z]{6,10}$/);
/** A slip of one or two edits of any kind: a replaced, dropped or doubled letter, two letters swapped. */
const slip = (name: string, edits: number[]): string => {
  let out = name;
  for (const edit of edits) {
    const i = 1 + (edit % (out.length - 2));
    const kind = Math.floor(edit / 100) % 4;
    const other = out[i] === 'q' ? 'x' : 'q';
    if (kind === 0) out = out.slice(0, i) + other + out.slice(i + 1);
    else if (kind === 1) out = out.slice(0, i) + out.slice(i + 1);
    else if (kind === 2) out = out.slice(0, i) + out[i] + out.slice(i);
    else out = out.slice(0, i) + out[i + 1] + out[i] + out.slice(i + 2);
  }
  return out;
};

describe('field-name-misspelling-in-context', () => {
  it('edit distance: Damerau-Levenshtein up to two, as a brute-force search of edits finds it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-c_]{0,7}$/), fc.stringMatching(/^[a-c_]{0,7}$/), (a, b) => {
        expect(editDistance(a, b), `${a} ${b}`).toBe(reference(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('finds any slip of one or two edits in a list that shares its other names, with both places', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { minLength: 4, maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 399 }), { minLength: 1, maxLength: 2 }),
        (names, edits) => {
          const target = names[0]!;
          const slipped = slip(target, edits);
          const distance = editDistance(target, slipped);
          fc.pre(distance >= 1 && slipped.length >= 5 && !names.includes(slipped));
          const reports = check(catalogueOf([names, [slipped, ...names.slice(1)]]));
          const wanted = reports.filter((report) => report.message.includes(`\`${slipped}\``));
          // A one-letter insertion, deletion or swap is the context-free rule's (this rule leaves it), and
          // a name with an `s` more is a plural.
          if (isLikelyMisspelling(target, slipped) || isPlural(target, slipped)) {
            expect(wanted).toEqual([]);
            return;
          }
          expect(wanted, `${target} -> ${slipped}`).toHaveLength(1);
          expect(wanted[0]!.message).toMatch(/\(g\.yaml:\d+:7\).*\(g\.yaml:\d+:7\)/);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('says nothing of lists that share little, whatever their names', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { minLength: 6, maxLength: 10 }),
        fc.integer({ min: 0, max: 399 }),
        (names, edit) => {
          const [a, b, c, d, e, f] = names as [string, string, string, string, string, string];
          // One shared name besides the pair: not a context.
          const reports = check(
            catalogueOf([
              [a, b, c, d],
              [slip(a, [edit]), b, e, f],
            ]),
          );
          expect(reports).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

const isPlural = (a: string, b: string): boolean =>
  a === `${b}s` || b === `${a}s` || a === `${b}es` || b === `${a}es`;

describe('group-without-owner', () => {
  it('says nothing in a catalogue without teams, and names each unowned group once teams exist', () => {
    const catalogue = catalogueOf([['order_id']]);
    const ctx = { catalogue, index: indexCatalogue(catalogue), pattern: () => undefined };
    expect(groupWithoutOwner.check(ctx)).toEqual([]);
    const owned = catalogueOf([['order_id']], 'teams:\n  billing: {name: Billing, contact: b@example.com}\n');
    const reports = groupWithoutOwner.check({ ...ctx, catalogue: owned });
    expect(reports.map((report) => report.subject)).toEqual(['group g']);
    expect(reports[0]!.location).toMatchObject({ file: 'g.yaml', line: 1 });
    const config = resolveLintConfig({});
    expect(lintCatalogue(owned, { config }).findings.map((finding) => finding.rule)).toContain(
      'group-without-owner',
    );
  });
});
