import { type CelInput, celEnv, parse, plan } from '@bufbuild/cel';
import { STRINGS_EXT_FUNCS } from '@bufbuild/cel/ext/strings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRule } from '../../generators/cel/check.js';
import { rulesOverMessage } from '../../generators/cel/over-message.js';
import type { EventVersion, Rule, Shape } from '../../generators/model.js';
import { ORDER, SHAPES, scopeOf } from './model-fixture.js';
import { payloadOf } from './payloads.js';

const at = { file: 'test.yaml', line: 1, column: 1 };
const rule = (name: string, expr: string): Rule => ({
  name,
  expr,
  message: `${name} broken`,
  attr: '',
  source: at,
});

const shapes: Record<string, Shape> = {
  Line: {
    name: 'Line',
    fields: SHAPES.Line!,
    rules: [rule('qty_positive', 'this.qty > 0'), rule('sku_short', '!has(this.sku) || size(this.sku) < 3')],
    source: at,
  },
  Party: { name: 'Party', fields: SHAPES.Party!, rules: [rule('named', 'this.name != "this"')], source: at },
};
const event: EventVersion = {
  key: 'order.placed-v1',
  type: 'order.placed',
  version: 'v1',
  group: 'orders',
  title: 'Order placed',
  composition: { kind: 'fields' },
  fields: ORDER,
  rules: [rule('amount_positive', 'message.amount > 0')],
  shapeRules: [
    { shape: 'Line', path: ['lines', '[]'] },
    { shape: 'Party', path: ['buyer'] },
    { shape: 'Party', path: ['seller'] },
  ],
  source: at,
};

describe('rules over message (what a registry serves)', () => {
  const rules = rulesOverMessage(event, shapes);

  it('rewrites each shape rule at each place, guarding optional fields and walking arrays', () => {
    expect(rules.map(({ name, expr }) => [name, expr])).toEqual([
      ['amount_positive', 'message.amount > 0'],
      ['lines_qty_positive', 'message.lines.all(item1, (item1.qty > 0))'],
      ['lines_sku_short', 'message.lines.all(item1, (!has(item1.sku) || size(item1.sku) < 3))'],
      ['buyer_named', '(message.buyer.name != "this")'],
      ['seller_named', '(!has(message.seller) || (message.seller.name != "this"))'],
    ]);
    expect(rules.map((r) => r.doc)).toContain('named broken');
  });

  it('gives expressions eventry itself accepts over message', () => {
    for (const { expr } of rules) expect(checkRule(expr, scopeOf()).ok).toBe(true);
  });

  it('is broken exactly when the shape rule is broken at one of its values (@bufbuild/cel)', () => {
    const env = celEnv({ funcs: STRINGS_EXT_FUNCS });
    const lineRules = shapes.Line!.rules!.map((r) => plan(env, parse(r.expr)));
    const overMessage = rules.slice(1, 3).map((r) => plan(env, parse(r.expr)));
    let broken = 0;
    fc.assert(
      fc.property(payloadOf(ORDER, SHAPES), (payload) => {
        lineRules.forEach((run, i) => {
          const items = payload.lines as unknown[];
          const anyBroken = items.some((item) => run({ this: item as CelInput }) === false);
          if (anyBroken) broken++;
          expect(overMessage[i]!({ message: payload as CelInput }) === false).toBe(anyBroken);
        });
      }),
      { seed: 4545, numRuns: 300 },
    );
    expect(broken).toBeGreaterThan(30);
  });
});
