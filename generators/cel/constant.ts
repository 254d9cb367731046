import { RuleCompiler } from './compile.js';
import type { TypedNode } from './types.js';

/**
 * What a checked rule gives whatever the payload, found from its tree alone: `true` when it is never
 * false (so never broken: `true`, `has(message.x) || !has(message.x)`, `message.n == message.n` over a
 * non-double), `false` when it is always false (never kept: `has(message.x) && !has(message.x)`),
 * undefined when the tree does not say. An evaluation error counts as neither (the Confluent client
 * lets a payload pass on one), so a side that may err never decides alone. Sound, not complete: what it
 * says holds for every payload; a rule it says nothing of may still be constant (the test data's
 * search is the other judge, see the lint's `rule-unbreakable`).
 */
export function constantValue(node: TypedNode): boolean | undefined {
  if (never(node, false)) return true;
  // Never true and never an error: always false, so kept by no payload (an error would let it pass).
  if (never(node, true) && !node.mayError) return false;
  return undefined;
}

/** Whether the tree reads the payload anywhere (`message`, `this`, or a variable bound to a part of it). */
function readsPayload(node: TypedNode): boolean {
  switch (node.op) {
    case 'const':
      return false;
    case 'ident':
      // `message`, `this`, or a comprehension's variable (an item of the payload, or of a list it made).
      return true;
    case 'select':
    case 'has':
      return readsPayload(node.target);
    case 'call':
      return node.args.some(readsPayload);
    case 'list':
      return node.items.some(readsPayload);
    case 'macro':
      return [node.range, node.test, node.step].some((part) => part !== undefined && readsPayload(part));
  }
}

/**
 * Whether a rule that reads no field is broken: its compiled code (the validators', with CEL's
 * semantics, an error passing) run once, since every payload gives the same.
 */
function evaluateBroken(node: TypedNode): boolean {
  const compiler = new RuleCompiler();
  const broken = compiler.broken(node, 'data');
  const run = new Function('data', `${compiler.source().declarations}\nreturn ${broken};`);
  return run({}) === true;
}

/** Whether `node` can never evaluate to `value` (it gives the other value, or an error). */
function never(node: TypedNode, value: boolean): boolean {
  if (node.op === 'const') return typeof node.value === 'boolean' && node.value !== value;
  // A condition that reads no field gives one outcome for every payload: its compiled code says which
  // (broken: false; kept: true, or an error, which is never false but may not be true).
  if (node.type.kind === 'bool' && !readsPayload(node)) return evaluateBroken(node) === value;
  if (node.op === 'macro') {
    // `all` over any list is true when its test is never false; `exists` false when never true.
    if (node.macro === 'all' && !value) return node.test !== undefined && never(node.test, false);
    if (node.macro === 'exists' && value) return node.test !== undefined && never(node.test, true);
    return false;
  }
  if (node.op !== 'call') return false;
  const [a, b, c] = node.args;
  switch (node.fn) {
    case '!_':
      return never(a!, !value);
    case '_||_':
      // Never false: a side that is never false, or two sides one of which is the negation of the other.
      return value
        ? never(a!, true) && never(b!, true)
        : never(a!, false) || never(b!, false) || complementary(a!, b!);
    case '_&&_':
      return value
        ? never(a!, true) || never(b!, true) || complementary(a!, b!)
        : never(a!, false) && never(b!, false);
    case '_?_:_':
      return never(b!, value) && never(c!, value);
    case '_==_':
    case '_<=_':
    case '_>=_':
      return !value && reflexive(a!, b!);
    case '_!=_':
    case '_<_':
    case '_>_':
      return value && reflexive(a!, b!);
    default:
      return false;
  }
}

/** `x` against itself, where comparing a value with itself is always equal: not a double (NaN). */
function reflexive(a: TypedNode, b: TypedNode): boolean {
  return a.type.kind !== 'double' && !hasDouble(a) && same(a, b);
}

/** Whether a node computes with doubles anywhere (a NaN inside a list or a call breaks equality). */
function hasDouble(node: TypedNode): boolean {
  if (node.type.kind === 'double') return true;
  if (node.type.kind === 'list' && node.type.of.kind === 'double') return true;
  if (node.op === 'call') return node.args.some(hasDouble);
  if (node.op === 'list') return node.items.some(hasDouble);
  return false;
}

/** Whether one side is `!` of the other (`has(x)` and `!has(x)`), neither of which can err. */
function complementary(a: TypedNode, b: TypedNode): boolean {
  if (a.mayError || b.mayError) return false;
  const negated = (x: TypedNode, y: TypedNode) => x.op === 'call' && x.fn === '!_' && same(x.args[0]!, y);
  return negated(a, b) || negated(b, a);
}

/** Structural equality of two checked trees, offsets aside. */
function same(a: TypedNode, b: TypedNode): boolean {
  switch (a.op) {
    case 'const':
      return b.op === 'const' && typeof a.value === typeof b.value && a.value === b.value;
    case 'ident':
      return b.op === 'ident' && a.name === b.name;
    case 'select':
    case 'has':
      return b.op === a.op && a.field === b.field && same(a.target, b.target);
    case 'call':
      return b.op === 'call' && a.fn === b.fn && sameList(a.args, b.args);
    case 'list':
      return b.op === 'list' && sameList(a.items, b.items);
    case 'macro':
      return (
        b.op === 'macro' &&
        a.macro === b.macro &&
        a.variable === b.variable &&
        same(a.range, b.range) &&
        sameOptional(a.test, b.test) &&
        sameOptional(a.step, b.step)
      );
  }
}

function sameList(a: readonly TypedNode[], b: readonly TypedNode[]): boolean {
  return a.length === b.length && a.every((node, i) => same(node, b[i]!));
}

function sameOptional(a: TypedNode | undefined, b: TypedNode | undefined): boolean {
  return a === undefined || b === undefined ? a === b : same(a, b);
}
