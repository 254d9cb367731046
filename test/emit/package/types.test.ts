import { describe, expect, it } from 'vitest';
import { emitGroupTypes } from '../../../generators/emit/package/types.js';
import { fixturePath, loadValid } from '../../helpers.js';

const small = loadValid(fixturePath('small'));
const types = (slug: string) =>
  emitGroupTypes(small, small.groups.find((group) => group.slug === slug)!, `@fixture-events/${slug}`);

// Regressions of issue 9: types.d.ts was unindented, copied same_as/extends events field by field,
// dropped shapes reached only through `extends`, said nothing of integers and dates, and put
// `@deprecated` before the description.
describe('types.d.ts', () => {
  it('declares a same_as event as an alias of the event it is the same as', () => {
    expect(types('account')).toContain('export type AccountRemovedV1 = AccountCreatedV1;');
  });

  it('declares an extends event as an interface extending the event, with its own fields only', () => {
    expect(types('account')).toContain(
      'export interface AccountRemovedV2 extends AccountCreatedV1 {\n  reason: string;\n  changes: { [k: string]: unknown };\n}',
    );
  });

  it('emits a shape reached only through extends, with its description, and extends it', () => {
    const text = types('billing');
    expect(text).toContain(
      '/**\n * Shared by several conversation events.\n */\nexport interface ConvBase {',
    );
    expect(text).toContain('export interface InkConversationClosedV1 extends ConvBase {');
    expect(text.match(/export interface ConvBase /g)).toHaveLength(1);
  });

  it('notes integers and date formats in the doc comment', () => {
    expect(types('billing')).toContain('  /**\n   * Integer.\n   */\n  conversation_id: number;');
    expect(types('billing')).toContain('  /**\n   * Date-time, ISO 8601.\n   */\n  start: string;');
    expect(types('account')).toContain('   * Date, `YYYY-MM-DD`.\n   */\n  opened_on?: string;');
  });

  it('puts the description first and @deprecated after it', () => {
    expect(types('account')).toContain(
      '/**\n * Payload of `account.removed`, version v1.\n *\n * @deprecated Since 1.0.0; use `account.removed-v2` instead. Carries no reason.\n */\nexport type AccountRemovedV1',
    );
  });
});

describe('types.d.ts of events and shapes with data rules', () => {
  const rules = loadValid(fixturePath('rules'));
  const text = emitGroupTypes(rules, rules.groups[0]!, '@fixture-rules/orders');

  it("lists the event's rules in its interface's doc comment, name: message and the expression", () => {
    expect(text).toContain(
      [
        '/**',
        ' * Payload of `order.placed`, version v1.',
        ' *',
        ' * Rules (CEL over `message`; `validate` reports each one broken as `rule_violated`):',
        ' * - amount_positive: The amount must be positive. `message.amount > 0`',
        ' * - lines_present: An order has at least one line. `size(message.lines) >= 1`',
        ' * - ships_after_placed: An order ships after it is placed. `!has(message.shipped_at) || timestamp(message.shipped_at) >= timestamp(message.placed_at)`',
      ].join('\n'),
    );
  });

  it("lists a shape's rules, over `this`, in the shape's interface", () => {
    expect(text).toContain(
      ' * Rules (CEL over `this`; `validate` reports each one broken as `rule_violated`):\n * - qty_positive: A line needs at least one item. `this.qty > 0`\n',
    );
    expect(text).toMatch(/`this\.qty > 0`[\s\S]*\*\/\nexport interface Line /);
  });

  it('says nothing of rules for an event without any', () => {
    expect(text).toMatch(
      /\/\*\*\n \* Payload of `order\.cancelled`, version v1\.\n \*\/\nexport interface OrderCancelledV1 /,
    );
  });
});
