import { type CheckContext, mismatch, type Scope, unsupported, withGuards } from './check-context.js';
import { chainTooLong, MAX_RULE_DEPTH } from './depth.js';
import type { CelExpr } from './parse.js';
import { matchesPattern, parseTimestamp } from './semantics.js';
import { aType, type CelType, cap, celTypeName, type TypedNode } from './types.js';

const BOOL: CelType = { kind: 'bool' };
const INT: CelType = { kind: 'int' };
const STRING: CelType = { kind: 'string' };

/** The functions of the strings extension the Confluent client registers, with their arguments after the string. */
const STRING_METHODS: Record<string, { args: CelType[][]; result: CelType; mayError: boolean }> = {
  contains: { args: [[STRING]], result: BOOL, mayError: false },
  startsWith: { args: [[STRING]], result: BOOL, mayError: false },
  endsWith: { args: [[STRING]], result: BOOL, mayError: false },
  lowerAscii: { args: [[]], result: STRING, mayError: false },
  upperAscii: { args: [[]], result: STRING, mayError: false },
  trim: { args: [[]], result: STRING, mayError: false },
  charAt: { args: [[INT]], result: STRING, mayError: true },
  indexOf: { args: [[STRING], [STRING, INT]], result: INT, mayError: true },
  lastIndexOf: { args: [[STRING], [STRING, INT]], result: INT, mayError: true },
  replace: {
    args: [
      [STRING, STRING],
      [STRING, STRING, INT],
    ],
    result: STRING,
    mayError: false,
  },
  split: { args: [[STRING], [STRING, INT]], result: { kind: 'list', of: STRING }, mayError: false },
  substring: { args: [[INT], [INT, INT]], result: STRING, mayError: true },
};

const ARITHMETIC = new Set(['_+_', '_-_', '_*_', '_/_', '_%_']);
const ORDER = new Set(['_<_', '_<=_', '_>_', '_>=_']);
const EQUALITY = new Set(['_==_', '_!=_']);

/** What eventry compiles, for the hint of an unsupported function. */
const SUPPORTED =
  'arithmetic, comparisons, `&&` `||` `!` `? :`, `in`, `has`, `size`, `timestamp`, `matches`, ' +
  `the strings functions (${Object.keys(STRING_METHODS).join(', ')}, join) and all/exists/exists_one/filter/map`;

/** Checks a call (an operator, a function, a method). */
export function checkCall(
  ctx: CheckContext,
  call: { target?: CelExpr; function: string; args: CelExpr[] },
  scope: Scope,
  offset: number,
): TypedNode | undefined {
  const fn = call.function;
  if (fn === '_&&_' || fn === '_||_') return logic(ctx, fn, call.args, scope, offset);
  if (fn === '_?_:_') return conditional(ctx, call.args, scope, offset);
  if (fn === 'has') return unsupported(ctx, offset, '`has()` takes a field: `has(message.a.b)`.');
  const target = call.target ? ctx.visit(call.target, scope) : undefined;
  if (call.target && !target) return undefined;
  const args: TypedNode[] = [];
  for (const arg of call.args) {
    const node = ctx.visit(arg, scope);
    if (!node) return undefined;
    args.push(node);
  }
  const all = target ? [target, ...args] : args;
  const typed = typeCall(ctx, fn, all, target !== undefined, offset);
  if (!typed) return undefined;
  const mayError = typed.mayError || all.some((node) => node.mayError);
  return { op: 'call', fn, args: all, type: typed.type, offset, mayError };
}

function logic(
  ctx: CheckContext,
  fn: '_&&_' | '_||_',
  exprs: CelExpr[],
  scope: Scope,
  offset: number,
): TypedNode | undefined {
  // The parser gives `a && b && c` as one call; it is folded from the left, each side reading what the
  // sides before it prove present: `has(a) && a > 0`, `!has(a) || a > 0`. A level per term.
  if (exprs.length > MAX_RULE_DEPTH) {
    ctx.problems.push(chainTooLong(offset, exprs.length, fn === '_&&_' ? '&&' : '||'));
    return undefined;
  }
  let left = ctx.visit(exprs[0], scope);
  for (const expr of exprs.slice(1)) {
    if (!left) return undefined;
    const right = ctx.visit(expr, withGuards(scope, left, fn === '_&&_'));
    if (!right) return undefined;
    for (const side of [left, right]) {
      if (side.type.kind !== 'bool') {
        const op = fn === '_&&_' ? '&&' : '||';
        return mismatch(ctx, side.offset, `\`${op}\` needs bools, not ${aType(side.type)}.`);
      }
    }
    const mayError = left.mayError || right.mayError;
    left = { op: 'call', fn, args: [left, right], type: BOOL, offset, mayError };
  }
  return left;
}

function conditional(
  ctx: CheckContext,
  exprs: CelExpr[],
  scope: Scope,
  offset: number,
): TypedNode | undefined {
  const test = ctx.visit(exprs[0], scope);
  if (!test) return undefined;
  const then = ctx.visit(exprs[1], withGuards(scope, test, true));
  const otherwise = ctx.visit(exprs[2], withGuards(scope, test, false));
  if (!then || !otherwise) return undefined;
  if (test.type.kind !== 'bool') {
    return mismatch(ctx, test.offset, `The condition of \`? :\` must be a bool, not ${aType(test.type)}.`);
  }
  if (celTypeName(then.type) !== celTypeName(otherwise.type)) {
    return mismatch(
      ctx,
      otherwise.offset,
      `The branches of \`? :\` differ: ${celTypeName(then.type)} and ${celTypeName(otherwise.type)}.`,
    );
  }
  const mayError = test.mayError || then.mayError || otherwise.mayError;
  return { op: 'call', fn: '_?_:_', args: [test, then, otherwise], type: then.type, offset, mayError };
}

const isNumber = (type: CelType) => type.kind === 'int' || type.kind === 'double';

/** Whether two values can be compared for equality (CEL compares numbers across int and double). */
function comparable(a: CelType, b: CelType): boolean {
  if (isNumber(a) && isNumber(b)) return true;
  return a.kind === b.kind && (a.kind === 'bool' || a.kind === 'string' || a.kind === 'timestamp');
}

type Typed = { type: CelType; mayError: boolean } | undefined;

function typeCall(ctx: CheckContext, fn: string, args: TypedNode[], method: boolean, offset: number): Typed {
  const [a, b] = args;
  if (ARITHMETIC.has(fn)) return arithmetic(ctx, fn, a!, b!, offset);
  if (EQUALITY.has(fn) || ORDER.has(fn)) {
    if (comparable(a!.type, b!.type)) return { type: BOOL, mayError: false };
    return mismatch(
      ctx,
      offset,
      `${cap(aType(a!.type))} cannot be compared with ${aType(b!.type)}.`,
      'Both sides need one type (an int and a double compare as numbers).',
    );
  }
  switch (fn) {
    case '!_':
      return a!.type.kind === 'bool'
        ? { type: BOOL, mayError: false }
        : mismatch(ctx, offset, '`!` needs a bool.');
    case '-_':
      return isNumber(a!.type)
        ? { type: a!.type, mayError: a!.type.kind === 'int' }
        : mismatch(ctx, offset, '`-` needs a number.');
    case '@in':
      return membership(ctx, a!, b!, offset);
    case '_[_]':
      if (a!.type.kind === 'list' && b!.type.kind === 'int') return { type: a!.type.of, mayError: true };
      return mismatch(
        ctx,
        offset,
        `\`[]\` takes a list and an int, not ${celTypeName(a!.type)} and ${celTypeName(b!.type)}.`,
      );
    case 'size':
      if (args.length === 1 && (a!.type.kind === 'string' || a!.type.kind === 'list'))
        return { type: INT, mayError: false };
      return mismatch(ctx, offset, '`size` takes a string or a list.');
    case 'timestamp':
      return timestamp(ctx, args, method, offset);
    case 'matches':
      return matches(ctx, args, offset);
    case 'join':
      return join(ctx, args, method, offset);
  }
  return stringMethod(ctx, fn, args, method, offset);
}

function arithmetic(ctx: CheckContext, fn: string, a: TypedNode, b: TypedNode, offset: number): Typed {
  const [x, y] = [a.type.kind, b.type.kind];
  if (x === 'int' && y === 'int') return { type: INT, mayError: true };
  if (x === 'double' && y === 'double' && fn !== '_%_') return { type: a.type, mayError: false };
  if (fn === '_+_' && x === 'string' && y === 'string') return { type: STRING, mayError: false };
  if (fn === '_+_' && x === 'list' && celTypeName(a.type) === celTypeName(b.type))
    return { type: a.type, mayError: false };
  const mixed = isNumber(a.type) && isNumber(b.type);
  return mismatch(
    ctx,
    offset,
    `\`${fn.slice(1, -1)}\` cannot take ${aType(a.type)} and ${aType(b.type)}.`,
    mixed
      ? 'Every JSON number is a double to CEL (an `integer` field too): write literals as doubles (`1.0`).'
      : fn === '_%_'
        ? '`%` takes ints only.'
        : undefined,
  );
}

function membership(ctx: CheckContext, a: TypedNode, b: TypedNode, offset: number): Typed {
  if (b.type.kind !== 'list') {
    return b.type.kind === 'map'
      ? unsupported(ctx, offset, '`in` over a free object is outside what eventry compiles.')
      : mismatch(
          ctx,
          offset,
          `\`in\` needs a list on its right, not ${aType(b.type)}.`,
          'Use `contains` for text.',
        );
  }
  if (!comparable(a.type, b.type.of)) {
    return mismatch(ctx, offset, `${cap(aType(a.type))} is never in ${aType(b.type)}.`);
  }
  return { type: BOOL, mayError: false };
}

function timestamp(ctx: CheckContext, args: TypedNode[], method: boolean, offset: number): Typed {
  const [arg] = args;
  if (method || args.length !== 1 || arg!.type.kind !== 'string') {
    return mismatch(ctx, offset, '`timestamp()` takes one string: a `format: date-time` field or a literal.');
  }
  if (arg!.op === 'const') {
    if (parseTimestamp(arg!.value as string) === undefined) {
      return mismatch(
        ctx,
        arg!.offset,
        `\`${String(arg!.value)}\` is not an RFC 3339 timestamp.`,
        'Write `2024-01-31T00:00:00Z`.',
      );
    }
    return { type: { kind: 'timestamp' }, mayError: false };
  }
  if (arg!.type.kind === 'string' && arg!.type.dateTime)
    return { type: { kind: 'timestamp' }, mayError: true };
  return mismatch(
    ctx,
    arg!.offset,
    '`timestamp()` reads a field declared `format: date-time` (any other text may not be a time).',
  );
}

function matches(ctx: CheckContext, args: TypedNode[], offset: number): Typed {
  const [text, pattern] = args;
  if (args.length !== 2 || text!.type.kind !== 'string' || pattern!.type.kind !== 'string') {
    return mismatch(ctx, offset, '`matches` takes a string and a pattern.');
  }
  if (pattern!.op !== 'const') {
    return unsupported(ctx, pattern!.offset, 'The pattern of `matches` must be a string literal.');
  }
  const problem = matchesPattern(pattern!.value as string);
  if (typeof problem === 'string') return unsupported(ctx, pattern!.offset, problem);
  return { type: BOOL, mayError: false };
}

function join(ctx: CheckContext, args: TypedNode[], method: boolean, offset: number): Typed {
  const [list, separator] = args;
  const listOk = method && list!.type.kind === 'list' && list!.type.of.kind === 'string';
  if (!listOk || args.length > 2 || (separator && separator.type.kind !== 'string')) {
    return mismatch(ctx, offset, '`join` is called on a list of strings, with an optional separator.');
  }
  return { type: STRING, mayError: false };
}

function stringMethod(
  ctx: CheckContext,
  fn: string,
  args: TypedNode[],
  method: boolean,
  offset: number,
): Typed {
  const spec = Object.hasOwn(STRING_METHODS, fn) ? STRING_METHODS[fn] : undefined;
  if (!spec) {
    return unsupported(
      ctx,
      offset,
      `\`${fn}\` is outside what eventry compiles.`,
      `Rules may use ${SUPPORTED}.`,
    );
  }
  const [text, ...rest] = args;
  const fits = spec.args.some(
    (want) => want.length === rest.length && want.every((type, i) => type.kind === rest[i]!.type.kind),
  );
  if (!method || text!.type.kind !== 'string' || !fits) {
    const shapes = spec.args.map((want) => `(${want.map(celTypeName).join(', ')})`).join(' or ');
    return mismatch(ctx, offset, `\`${fn}\` is called on a string with ${shapes}.`);
  }
  return { type: spec.result, mayError: spec.mayError };
}
