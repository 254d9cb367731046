import { describe, expect, it } from 'vitest';
import { checkRule } from '../../generators/cel/check.js';
import { SHAPES, scopeOf } from './model-fixture.js';

/** An expression the checker refuses: the code, where (offset into the text), a part of the message. */
type Refused = [string, { expr: string; code: string; offset: number; message: string }];

const refused: Refused[] = [
  [
    'syntax error',
    { expr: 'message.amount >', code: 'rule-syntax-error', offset: 15, message: 'not valid CEL' },
  ],
  [
    'unknown field',
    { expr: 'message.amont > 0.0', code: 'rule-unknown-field', offset: 8, message: 'no field `amont`' },
  ],
  [
    'unknown field of a shape',
    {
      expr: 'message.buyer.nam == ""',
      code: 'rule-unknown-field',
      offset: 14,
      message: '`Party` has no field `nam`',
    },
  ],
  [
    'unknown variable',
    { expr: 'msg.amount > 0.0', code: 'rule-unknown-field', offset: 0, message: '`msg` is not defined' },
  ],
  [
    'int arithmetic on a JSON number',
    { expr: 'message.count + 1 > 2', code: 'rule-type-mismatch', offset: 14, message: 'double and an int' },
  ],
  [
    'string compared with a number',
    {
      expr: 'message.currency == 1',
      code: 'rule-type-mismatch',
      offset: 17,
      message: 'string cannot be compared',
    },
  ],
  [
    'not a condition',
    { expr: 'message.amount', code: 'rule-type-mismatch', offset: 0, message: 'must be a bool' },
  ],
  [
    '&& over a number',
    {
      expr: 'message.paid && message.amount',
      code: 'rule-type-mismatch',
      offset: 23,
      message: 'needs bools',
    },
  ],
  [
    '% on doubles',
    {
      expr: 'message.amount % 2.0 == 0.0',
      code: 'rule-type-mismatch',
      offset: 15,
      message: '`%` cannot take',
    },
  ],
  [
    'timestamp of a plain string',
    {
      expr: 'timestamp(message.currency) > timestamp("2020-01-01T00:00:00Z")',
      code: 'rule-type-mismatch',
      offset: 17,
      message: 'format: date-time',
    },
  ],
  [
    'bad timestamp literal',
    {
      expr: 'timestamp(message.placed_at) > timestamp("2020-01-01")',
      code: 'rule-type-mismatch',
      offset: 41,
      message: 'not an RFC 3339',
    },
  ],
  [
    'optional read bare',
    {
      expr: 'message.note.size() > 2',
      code: 'rule-unguarded-field',
      offset: 8,
      message: '`message.note` is optional',
    },
  ],
  [
    'guard after the read',
    {
      expr: 'message.note == "x" && has(message.note)',
      code: 'rule-unguarded-field',
      offset: 8,
      message: 'optional',
    },
  ],
  [
    'guard of another field',
    {
      expr: 'has(message.seller) && message.note == "x"',
      code: 'rule-unguarded-field',
      offset: 31,
      message: 'optional',
    },
  ],
  [
    'guard in the wrong branch',
    {
      expr: 'has(message.note) ? true : message.note == ""',
      code: 'rule-unguarded-field',
      offset: 35,
      message: 'optional',
    },
  ],
  [
    'optional item field',
    {
      expr: 'message.lines.all(l, l.sku != "")',
      code: 'rule-unguarded-field',
      offset: 23,
      message: '`l.sku` is optional',
    },
  ],
  [
    'free object',
    {
      expr: 'has(message.extra) && message.extra.k == 1',
      code: 'rule-unsupported',
      offset: 36,
      message: 'free object',
    },
  ],
  [
    'unsigned literal',
    { expr: 'message.amount > 1u', code: 'rule-unsupported', offset: 17, message: 'Unsigned' },
  ],
  [
    'null literal',
    { expr: 'message.currency == null', code: 'rule-unsupported', offset: 20, message: '`null`' },
  ],
  [
    'unknown function',
    { expr: 'message.currency.reverse() == ""', code: 'rule-unsupported', offset: 16, message: '`reverse`' },
  ],
  [
    'format of the strings extension',
    {
      expr: '"%s".format([message.currency]) == ""',
      code: 'rule-unsupported',
      offset: 4,
      message: '`format`',
    },
  ],
  [
    'duration',
    { expr: 'duration("1s") == duration("1s")', code: 'rule-unsupported', offset: 0, message: '`duration`' },
  ],
  [
    'pattern not RE2',
    { expr: 'message.currency.matches("(?=E)")', code: 'rule-unsupported', offset: 25, message: 'RE2' },
  ],
  [
    'pattern not a literal',
    {
      expr: 'message.currency.matches(message.currency)',
      code: 'rule-unsupported',
      offset: 32,
      message: 'string literal',
    },
  ],
  [
    'mixed list literal',
    {
      expr: 'message.amount in [1, 2.0]',
      code: 'rule-type-mismatch',
      offset: 22,
      message: 'mixes int and double',
    },
  ],
  [
    'in over a string',
    { expr: '"E" in message.currency', code: 'rule-type-mismatch', offset: 3, message: 'needs a list' },
  ],
  [
    'this in an event rule',
    { expr: 'this.amount > 0.0', code: 'rule-unknown-field', offset: 0, message: 'reads `message`' },
  ],
  [
    'macro over a number',
    {
      expr: 'message.amount.all(x, x > 0.0)',
      code: 'rule-type-mismatch',
      offset: 14,
      message: 'needs a list',
    },
  ],
  [
    'shadowed variable',
    {
      expr: 'message.lines.all(message, true)',
      code: 'rule-unsupported',
      offset: 13,
      message: 'already in use',
    },
  ],
];

const accepted: string[] = [
  'message.amount > 0',
  'message.amount >= 0.0 && message.count < 100',
  'message.count == 3',
  'message.amount + 1.0 > message.amount',
  'message.amount / 2.0 < message.amount || message.amount <= 0.0',
  '-message.amount < 1.0',
  'size(message.tags) + 1 > 0',
  'size(message.tags) % 2 == 0 || true',
  'message.currency in ["EUR", "USD"]',
  'message.count in [1.0, 2.0]',
  'message.currency.startsWith("E") || message.currency.endsWith("D")',
  'message.currency.contains("U") == !message.paid',
  'message.currency.matches("^[A-Z]{3}$")',
  'message.currency.lowerAscii() != message.currency.upperAscii()',
  'message.currency.charAt(0) == "E"',
  'message.currency.indexOf("U") >= 0 && message.currency.lastIndexOf("U", 1) < 3',
  'message.currency.replace("E", "e") != "" && message.currency.split("U").size() > 0',
  'message.currency.substring(1, 2) != " " && message.currency.trim() == message.currency',
  'message.tags.join(",").size() >= 0 && message.tags.join().size() >= 0',
  'has(message.note) && message.note.size() > 2',
  '!has(message.note) || message.note != ""',
  'has(message.note) ? message.note != "" : true',
  'has(message.seller) && has(message.seller.email) && message.seller.email.contains("@")',
  'message.lines.all(l, l.qty > 0.0 && (!has(l.sku) || l.sku.startsWith("A")))',
  'message.lines.exists(l, l.price > 10.0)',
  'message.lines.exists_one(l, l.qty == 1.0)',
  'message.lines.filter(l, l.qty > 1.0).size() < 3',
  'message.lines.map(l, l.price * l.qty).all(t, t >= 0.0)',
  'message.lines.map(l, l.qty > 0.0, l.price).exists(p, p > 1.0)',
  'message.scores.size() == 0 || message.scores[0] >= 0.0',
  'timestamp(message.placed_at) < timestamp("2100-01-01T00:00:00Z")',
  '!has(message.shipped_at) || timestamp(message.shipped_at) >= timestamp(message.placed_at)',
  'message.paid ? message.amount > 0.0 : message.amount == 0.0',
  'message.buyer.name != "" && size(message.tags + ["x"]) > 0',
];

describe('checkRule', () => {
  it.each(refused)('refuses %s', (_name, { expr, code, offset, message }) => {
    const result = checkRule(expr, scopeOf());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({ code, offset });
    expect(result.problems[0]!.message).toContain(message);
  });

  it.each(accepted)('accepts %s', (expr) => {
    const result = checkRule(expr, scopeOf());
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  it('gives the names an unknown field could have meant', () => {
    const result = checkRule('message.amont > 0.0', scopeOf());
    expect(result.ok ? undefined : result.problems[0]).toMatchObject({ unknown: 'amont' });
    expect(result.ok ? [] : result.problems[0]!.candidates).toContain('amount');
  });

  it('checks a shape rule over `this`', () => {
    expect(
      checkRule('this.qty > 0.0 && (!has(this.sku) || this.sku != "")', scopeOf(SHAPES.Line, 'this')).ok,
    ).toBe(true);
    const result = checkRule('message.qty > 0.0', scopeOf(SHAPES.Line, 'this'));
    expect(result.ok ? '' : result.problems[0]!.hint).toContain('Write `this`');
  });
});
