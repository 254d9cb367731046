import { describe, expect, it } from 'vitest';
import {
  type CatalogueProblem,
  loadCatalogue,
  loadCatalogueFromSources,
} from '../../generators/load/index.js';
import { fixturePath } from '../helpers.js';

const CONFIG = { path: 'eventry.config.yaml', text: 'title: T\nversion: 1.0.0\nscope: "@t"\n' };

/** Loads a group file whose one event has the given `rules:` block (and a shape file). */
function loadWith(rules: string, shapes = ''): CatalogueProblem[] | Record<string, unknown> {
  const group = [
    'group: {slug: shop, title: Shop}',
    'events:',
    '  sale.made-v1:',
    '    fields:',
    '      amount: {type: number, required: true}',
    '      note: {type: string}',
    '      lines: {type: [Line], required: true}',
    '    rules:',
    rules,
  ].join('\n');
  const shapeFile = `shapes:\n  Line:\n    fields:\n      qty: {type: integer, required: true}\n${shapes}`;
  const result = loadCatalogueFromSources([
    CONFIG,
    { path: 'groups/shop.yaml', text: `${group}\n` },
    { path: 'shapes.yaml', text: shapeFile },
  ]);
  return result.ok ? (result.catalogue as unknown as Record<string, unknown>) : result.problems;
}

function problems(rules: string, shapes = ''): CatalogueProblem[] {
  const result = loadWith(rules, shapes);
  return Array.isArray(result) ? result : [];
}

describe('rules in the catalogue', () => {
  it('locates an unknown field in a one-line expression, with a did-you-mean', () => {
    const found = problems('      - {name: a_rule, expr: message.amont > 0, message: M}');
    expect(found).toMatchObject([
      {
        code: 'rule-unknown-field',
        file: 'groups/shop.yaml',
        line: 9,
        column: 38,
        hint: 'Did you mean `amount`?',
      },
    ]);
  });

  it('locates a problem in a quoted expression and on the second line of a block', () => {
    const quoted = problems('      - name: q\n        expr: "message.note == \'x\'"\n        message: M');
    expect(quoted).toMatchObject([{ code: 'rule-unguarded-field', line: 10, column: 24 }]);
    const block = problems(
      '      - name: b\n        expr: |\n          message.amount > 0.0 &&\n            message.note != ""\n        message: M',
    );
    expect(block).toMatchObject([{ code: 'rule-unguarded-field', line: 12, column: 21 }]);
  });

  it('refuses two rules of one name, unknown keys and names that are not snake_case', () => {
    const found = problems(
      [
        '      - {name: same, expr: message.amount > 0, message: M}',
        '      - {name: same, expr: message.amount < 9, message: M}',
        '      - {name: Bad-Name, expr: "true", message: M, severity: high}',
      ].join('\n'),
    );
    expect(found.map((problem) => [problem.code, problem.line])).toEqual([
      ['duplicate-rule', 10],
      ['invalid-value', 11],
      ['unknown-key', 11],
    ]);
  });

  it('refuses an attr that names no field, and takes array indexes and shape fields', () => {
    const found = problems('      - {name: a, expr: message.amount > 0, message: M, attr: amout}');
    expect(found).toMatchObject([{ code: 'rule-unknown-field', line: 9, hint: 'Did you mean `amount`?' }]);
    expect(found[0]!.message).toContain('`attr` names `amout`');
    expect(problems('      - {name: a, expr: message.amount > 0, message: M, attr: lines.0.qty}')).toEqual(
      [],
    );
    expect(
      problems('      - {name: a, expr: message.amount > 0, message: M, attr: lines.qty}'),
    ).toMatchObject([{ code: 'rule-unknown-field' }]);
  });

  it('checks a shape rule over `this` and refuses `message` there', () => {
    const found = problems(
      '      - {name: ok, expr: "true", message: M}',
      '    rules:\n      - {name: s, expr: message.qty > 0, message: M}\n',
    );
    expect(found).toMatchObject([
      { code: 'rule-unknown-field', file: 'shapes.yaml', hint: 'Write `this` instead of `message`.' },
    ]);
  });

  it('carries rules as plain data, and where each shape with rules sits', () => {
    const loaded = loadCatalogue(fixturePath('rules'));
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const event = loaded.catalogue.events['order.placed-v1']!;
    expect(event.rules?.map((rule) => [rule.name, rule.attr])).toEqual([
      ['amount_positive', 'amount'],
      ['lines_present', 'lines'],
      ['ships_after_placed', 'shipped_at'],
      ['priced_lines_need_amount', 'amount'],
    ]);
    expect(event.rules?.[2]?.expr).toContain('timestamp(message.shipped_at)');
    expect(event.shapeRules).toEqual([{ shape: 'Line', path: ['lines', '[]'] }]);
    expect(loaded.catalogue.shapes.Line?.rules?.map((rule) => rule.name)).toEqual([
      'qty_positive',
      'discount_below_price',
    ]);
    expect(loaded.catalogue.events['order.cancelled-v1']).not.toHaveProperty('rules');
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);
  });
});
