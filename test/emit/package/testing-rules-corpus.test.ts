import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testingData } from '../../../generators/emit/package/testing.js';
import { compiledRuleCheck } from '../../../generators/emit/package/testing-check.js';
import { loadCatalogueFromSources, readCatalogueSources } from '../../../generators/load/index.js';
import { defineTesting, RuleDataError } from '../../../generators/runtime/testing.js';
import { LINE_RULES, ORDER_RULES } from '../../cel/corpus.js';
import { fixturePath, tempDir } from '../../helpers.js';

/**
 * The agreement test's rule corpus (test/cel/corpus.ts), one rule per event, as test data meets it:
 * for each rule, `fake` either keeps it or names it as unsatisfiable, and `invalid` either breaks it
 * alone, with exactly its item, or names it as unbreakable. Nothing passes silently.
 */
const ORDER_FIELDS = `
      amount: {type: number, required: true}
      count: {type: integer, required: true}
      currency: {type: string, required: true, enum: [EUR, USD, GBP]}
      note: {type: string}
      paid: {type: boolean, required: true}
      placed_at: {type: string, required: true, format: date-time}
      shipped_at: {type: string, format: date-time}
      tags: {type: [string], required: true}
      scores: {type: [number], required: true}
      buyer: {type: Party, required: true}
      seller: {type: Party}
      extra: {type: object}`;

function corpusCatalogue(): { dir: string; rules: string[] } {
  const dir = tempDir('eventry-rule-corpus-');
  cpSync(join(fixturePath('rules'), 'eventry.config.yaml'), join(dir, 'eventry.config.yaml'));
  const rules = Object.values(ORDER_RULES).flat();
  const shapes = [
    'shapes:',
    '  Party:\n    fields:\n      name: {type: string, required: true}\n      email: {type: string}',
    ...LINE_RULES.map(
      (expr, n) =>
        `  Line${n}:\n    fields:\n      qty: {type: integer, required: true}\n      price: {type: number, required: true}\n      sku: {type: string}\n    rules:\n      - {name: rule_${n}, expr: ${JSON.stringify(expr)}, message: Line rule ${n}., attr: ""}`,
    ),
  ];
  const events = [
    ...rules.map(
      (expr, n) =>
        `  corpus.rule-${n}-v1:\n    title: Rule ${n}\n    fields:${ORDER_FIELDS}\n      lines: {type: [Line0], required: true}\n    rules:\n      - {name: rule_${n}, expr: ${JSON.stringify(expr)}, message: Rule ${n}., attr: ""}`,
    ),
    ...LINE_RULES.map(
      (_expr, n) =>
        `  corpus.line-${n}-v1:\n    title: Line ${n}\n    fields:${ORDER_FIELDS}\n      lines: {type: [Line${n}], required: true}`,
    ),
  ];
  mkdirSync(join(dir, 'groups'));
  writeFileSync(join(dir, 'shapes.yaml'), `${shapes.join('\n')}\n`);
  writeFileSync(
    join(dir, 'groups', 'corpus.yaml'),
    `group:\n  slug: corpus\n  title: Corpus\nevents:\n${events.join('\n')}\n`,
  );
  return { dir, rules };
}

describe('test data over the rule corpus', () => {
  it('keeps or names each rule, and breaks each alone or names it', { timeout: 120_000 }, () => {
    const { dir } = corpusCatalogue();
    const loaded = loadCatalogueFromSources(readCatalogueSources(dir));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems.slice(0, 3)));
    const model = loaded.catalogue;
    const data = testingData(model, model.groups[0]!);
    const { check } = compiledRuleCheck(model, data)!;
    const testing = defineTesting<Record<string, unknown>>('corpus', data, undefined, check);
    const count = { kept: 0, unsatisfiable: 0, broken: 0, unbreakable: 0 };
    for (const key of Object.keys(data.events)) {
      try {
        for (let seed = 0; seed < 20; seed++)
          expect(check(key, testing.fake(key, { seed }))).toEqual({ valid: true });
        count.kept++;
      } catch (error) {
        if (!(error instanceof RuleDataError)) throw error;
        expect(error.code).toBe('rule_unsatisfiable');
        expect(error.rule).toBeDefined();
        count.unsatisfiable++;
        continue;
      }
      try {
        const items = testing.invalid(key).filter((item) => item.problem === 'rule_violated');
        expect(items).toHaveLength(data.events[key]!.r!.length);
        for (const item of items) {
          const result = check(key, item.payload);
          expect(result.valid ? [] : result.error.errors.map(({ code, attr }) => ({ code, attr }))).toEqual([
            item.error,
          ]);
        }
        count.broken++;
      } catch (error) {
        if (!(error instanceof RuleDataError)) throw error;
        expect(error.code).toBe('rule_unbreakable');
        count.unbreakable++;
      }
    }
    console.log(`rule corpus test data: ${JSON.stringify(count)}`);
    // Most of the corpus is kept and broken; the rest is named, never skipped.
    expect(count.kept).toBeGreaterThan(Object.keys(data.events).length * 0.8);
    expect(count.broken).toBeGreaterThan(count.kept * 0.8);
  });
});
