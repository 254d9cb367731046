import type { RuleScope } from '../../generators/cel/types.js';
import type { Field, FieldType } from '../../generators/model.js';

/** A field of a test model. */
export function field(name: string, type: FieldType, required = true): Field {
  return { name, type, required, source: { file: 'test.yaml', line: 1, column: 1 } };
}

/** The shapes the rule tests' events use. */
export const SHAPES: Record<string, Field[]> = {
  Line: [
    field('qty', { kind: 'integer' }),
    field('price', { kind: 'number' }),
    field('sku', { kind: 'string' }, false),
  ],
  Party: [field('name', { kind: 'string' }), field('email', { kind: 'string' }, false)],
};

/** An order event: every kind of field a rule may read. */
export const ORDER: Field[] = [
  field('amount', { kind: 'number' }),
  field('count', { kind: 'integer' }),
  field('currency', { kind: 'string', enum: ['EUR', 'USD', 'GBP'] }),
  field('note', { kind: 'string' }, false),
  field('paid', { kind: 'boolean' }),
  field('placed_at', { kind: 'string', format: 'date-time' }),
  field('shipped_at', { kind: 'string', format: 'date-time' }, false),
  field('tags', { kind: 'array', items: { kind: 'string' } }),
  field('scores', { kind: 'array', items: { kind: 'number' } }),
  field('lines', { kind: 'array', items: { kind: 'shape', name: 'Line' } }),
  field('buyer', { kind: 'shape', name: 'Party' }),
  field('seller', { kind: 'shape', name: 'Party' }, false),
  field('extra', { kind: 'object' }, false),
];

/** The scope of a rule of the order event (`message`), or of a shape (`this`). */
export function scopeOf(fields: Field[] = ORDER, variable: 'message' | 'this' = 'message'): RuleScope {
  return { variable, name: 'order.placed-v1', fields, shapeFields: (name) => SHAPES[name] };
}
