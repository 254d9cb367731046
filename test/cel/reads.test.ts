import { describe, expect, it } from 'vitest';
import { checkRule } from '../../generators/cel/check.js';
import { fieldsRead } from '../../generators/cel/reads.js';
import { ORDER_RULES } from './corpus.js';
import { SHAPES, scopeOf } from './model-fixture.js';

/** The fields a rule of the order event (or, with `this`, of the Line shape) reads. */
function reads(expr: string, variable: 'message' | 'this' = 'message'): string[] {
  const scope = variable === 'message' ? scopeOf() : scopeOf(SHAPES.Line!, 'this');
  const checked = checkRule(expr, scope);
  if (!checked.ok) throw new Error(`${expr}: ${checked.problems[0]?.message}`);
  return fieldsRead(checked.node);
}

describe('the fields a rule reads, from its checked tree', () => {
  it.each<[string, string[]]>([
    ['message.amount > 0.0', ['amount']],
    ['message.amount >= 0.0 && message.count < 100.0', ['amount', 'count']],
    ['message.paid ? message.amount > 0.0 : message.amount == 0.0', ['amount', 'paid']],
    // Nested: the field read, not the object walked through.
    ['message.buyer.name != ""', ['buyer.name']],
    [
      'has(message.seller) && has(message.seller.email) && message.seller.email.contains("@")',
      ['seller.email'],
    ],
    // A presence test alone is a read of that field.
    ['has(message.note) || message.paid', ['note', 'paid']],
    ['!has(message.note) || message.note != ""', ['note']],
    // Arrays: what a macro reads of each item; the list itself when its size or items are used whole.
    ['message.lines.all(l, l.qty > 0.0)', ['lines[].qty']],
    ['message.lines.all(l, !has(l.sku) || l.sku.startsWith("A"))', ['lines[].sku']],
    ['message.lines.map(l, l.price * l.qty).all(t, t >= 0.0)', ['lines[].price', 'lines[].qty']],
    ['message.tags.exists(t, t == message.currency)', ['currency', 'tags[]']],
    ['size(message.tags) == message.count', ['count', 'tags']],
    ['"EUR" in message.tags', ['tags']],
    ['size(message.lines) == 0 || message.lines[0].qty > 0.0', ['lines', 'lines[].qty']],
    ['message.scores[0] >= 0.0 || message.paid', ['paid', 'scores[]']],
    ['timestamp(message.placed_at) < timestamp("2025-01-01T00:00:00Z")', ['placed_at']],
    ['true', []],
  ])('%s', (expr, want) => {
    expect(reads(expr)).toEqual(want);
  });

  it("reads a shape's rule from `this`", () => {
    expect(reads('this.qty * this.price < 100.0', 'this')).toEqual(['price', 'qty']);
    expect(reads('has(this.sku) ? this.sku.matches("^[A-Z]") : this.qty == 1.0', 'this')).toEqual([
      'qty',
      'sku',
    ]);
  });

  it('gives, for every rule of the agreement corpus, only fields the event has (sorted, each once)', () => {
    const top = new Set(scopeOf().fields.map((field) => field.name));
    for (const expr of Object.values(ORDER_RULES).flat()) {
      const found = reads(expr);
      expect([...new Set(found)].sort(), expr).toEqual(found);
      for (const path of found) expect(top.has(path.split(/[.[]/)[0]!), `${expr}: ${path}`).toBe(true);
    }
  });
});
