import { type CelInput, celEnv, parse, plan } from '@bufbuild/cel';
import { STRINGS_EXT_FUNCS } from '@bufbuild/cel/ext/strings';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { emitGroupPackages } from '../../generators/emit/package/index.js';
import { groupSourceHash } from '../../generators/emit/package/package-json.js';
import { loadCatalogueFromSources } from '../../generators/load/index.js';
import type { GroupApi, ValidateOptions } from '../../generators/runtime/runtime.js';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { fixturePath } from '../helpers.js';
import { payloadOf } from './payloads.js';

let built: BuiltPackages;
let orders: GroupApi<Record<string, unknown>>;
beforeAll(async () => {
  built = await buildPackages(fixturePath('rules'));
  orders = await built.importGroup('orders');
}, 120_000);

const order = {
  order_id: 'o-1',
  amount: 12.5,
  currency: 'EUR',
  placed_at: '2024-01-31T10:00:00Z',
  buyer: { name: 'Ada' },
  lines: [{ sku: 'A-1', qty: 2, price: 5 }],
};
const modes: [string, ValidateOptions | undefined][] = [
  ['strict', undefined],
  ['tolerant', { mode: 'tolerant' }],
];

const itemsOf = (key: string, payload: unknown, options?: ValidateOptions) => {
  const result = orders.validate(key, payload, options);
  return result.valid ? [] : result.error.errors;
};

describe('rules in the group packages', () => {
  it.each(modes)('accepts a payload that keeps every rule (%s)', (_mode, options) => {
    expect(orders.validate('order.placed-v1', order, options)).toEqual({ valid: true });
  });

  it.each(modes)('lists each broken rule, shape rules at each place they sit (%s)', (_mode, options) => {
    const payload = {
      ...order,
      amount: -1,
      shipped_at: '2024-01-30T10:00:00Z',
      lines: [
        { sku: 'A-1', qty: 1, price: 5 },
        { sku: 'B-2', qty: 0, price: 5, discount: 6 },
      ],
    };
    expect(itemsOf('order.placed-v1', payload, options)).toEqual([
      { detail: 'The amount must be positive.', code: 'rule_violated', attr: 'amount' },
      { detail: 'An order ships after it is placed.', code: 'rule_violated', attr: 'shipped_at' },
      {
        detail: 'An order with priced lines has an amount of at least 1.',
        code: 'rule_violated',
        attr: 'amount',
      },
      { detail: 'A line needs at least one item.', code: 'rule_violated', attr: 'lines.1.qty' },
      { detail: 'A discount cannot exceed the price.', code: 'rule_violated', attr: 'lines.1.discount' },
    ]);
  });

  it('checks rules only on a payload that passes the schema', () => {
    const items = itemsOf('order.placed-v1', { ...order, amount: -1, currency: 'XXX' });
    expect(items.map((item) => item.code)).toEqual(['invalid_value']);
  });

  it('reports a broken rule through the event entry point and with the payload attr', async () => {
    const refund = await built.importEvent('orders', 'refund.issued-v1');
    const result = refund.validate({ refund_id: 'r', amount: 1, reason: 'TEST: please ignore' });
    expect(result.valid ? [] : result.error.errors).toEqual([
      {
        detail: 'A refund reason is at most 20 characters and not a test.',
        code: 'rule_violated',
        attr: 'reason',
      },
    ]);
    expect(refund.validate({ refund_id: 'r', amount: 1, reason: 'damaged' })).toEqual({ valid: true });
  });

  it('breaks exactly the rules @bufbuild/cel finds broken, on generated payloads', () => {
    const event = built.catalogue.events['order.placed-v1']!;
    const shapes = Object.fromEntries(Object.entries(built.catalogue.shapes).map(([n, s]) => [n, s.fields]));
    const env = celEnv({ funcs: STRINGS_EXT_FUNCS });
    const own = (event.rules ?? []).map((rule) => ({ rule, run: plan(env, parse(rule.expr)) }));
    const line = (built.catalogue.shapes.Line!.rules ?? []).map((rule) => ({
      rule,
      run: plan(env, parse(rule.expr)),
    }));
    let broken = 0;
    fc.assert(
      fc.property(payloadOf(event.fields, shapes), (payload) => {
        // Only schema-valid payloads reach the rules: the generator makes those (number fields aside).
        const expected = own
          .filter(({ run }) => run({ message: payload as CelInput }) === false)
          .map(({ rule }) => ({ detail: rule.message, code: 'rule_violated', attr: rule.attr }));
        (payload.lines as unknown[]).forEach((item, i) => {
          for (const { rule, run } of line) {
            if (run({ this: item as CelInput }) === false) {
              expected.push({ detail: rule.message, code: 'rule_violated', attr: `lines.${i}.${rule.attr}` });
            }
          }
        });
        const result = orders.validate('order.placed-v1', payload);
        const items = result.valid ? [] : result.error.errors;
        if (items.some((item) => item.code !== 'rule_violated')) return;
        broken += expected.length;
        expect(items).toEqual(expected);
      }),
      { seed: 4545, numRuns: 300 },
    );
    expect(broken).toBeGreaterThan(50);
  });

  it('gives a package a new source hash when a rule changes, its shape unchanged', () => {
    const model = built.catalogue;
    const group = model.groups[0]!;
    const line = model.shapes.Line!;
    const changed = {
      ...model,
      shapes: { ...model.shapes, Line: { ...line, rules: [{ ...line.rules![0]!, expr: 'this.qty > 1' }] } },
    };
    expect(groupSourceHash(changed, group)).not.toBe(groupSourceHash(model, group));
  });

  it('shares a validator between events of one schema only when their rules are equal too', async () => {
    const event = (rule: string) =>
      `    fields:\n      amount: {type: number, required: true}\n${rule ? `    rules:\n      - {name: r, expr: "${rule}", message: M}\n` : ''}`;
    const group = [
      'group: {slug: shop, title: Shop}',
      'events:',
      `  a.plain-v1:\n${event('')}`,
      `  b.plain-v1:\n${event('')}`,
      `  c.ruled-v1:\n${event('message.amount > 0')}`,
      `  d.ruled-v1:\n${event('message.amount > 0')}`,
      `  e.other-v1:\n${event('message.amount < 9')}`,
    ].join('\n');
    const loaded = loadCatalogueFromSources([
      { path: 'eventry.config.yaml', text: 'title: T\nversion: 1.0.0\nscope: "@t"\n' },
      { path: 'groups/shop.yaml', text: group },
    ]);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const files = await emitGroupPackages(loaded.catalogue, { versions: {} });
    const chunk = files.find((file) => file.path === 'shop/chunks/0.js')!.contents;
    expect(chunk.match(/^function event\d+\(exports\)/gm)).toEqual([
      'function event0(exports)',
      'function event2(exports)',
      'function event4(exports)',
    ]);
    expect(chunk.match(/^function rules\(/gm)).toHaveLength(2);
  });
});
