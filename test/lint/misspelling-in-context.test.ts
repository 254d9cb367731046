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

/** The full optimal-string-alignment distance, without a cap: the reference the capped one must agree with. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
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
  it('edit distance: the capped one agrees with the full reference (swaps count as one)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-c_]{0,8}$/), fc.stringMatching(/^[a-c_]{0,8}$/), (a, b) => {
        const full = reference(a, b);
        expect(editDistance(a, b)).toBe(full <= 2 ? full : 3);
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
