import type { CelType, TypedNode } from '../cel/types.js';

/**
 * CEL (a checked `set ... cel:` expression, over `message`) to JSONata, for the registry's migration
 * rules (generators/migrate/jsonata.ts). Only a listed subset is translated, each part with the same
 * result as CEL on a payload the `from` version accepts; anything else has a reason (`jsonataSupport`)
 * and is refused, never translated approximately:
 * - `message` and field selection (`message.a.b`), `has(message.a.b)`;
 * - literals: bools, strings, doubles, ints within ±2^53, lists of them;
 * - `+ - *` on numbers, `/` on doubles, unary `-`, `+` on strings (JSONata's `&`);
 * - `== !=` on bools, numbers and strings; `< <= > >=` on numbers;
 * - `&& || !`, `? :`, `in` over a list of bools, numbers or strings;
 * - `size()` of a string (code points, as `$length`) or a list;
 * - the strings extension's `contains`, `startsWith`, `endsWith`, `lowerAscii`, `upperAscii`.
 * Refused, with why: int `/` and `%` (CEL truncates, JSONata divides), ordering of strings (CEL
 * orders code points, JSONata UTF-16 units), lists joined by `+`, indexing, timestamps, `matches` and
 * the other string functions, the comprehension macros, equality of lists or objects.
 */

/** The helper functions a translation calls, defined once at the top of the migration's expression. */
export const CEL_HELPERS = {
  startsWith: '$startsWith := function($s, $p) { $substring($s, 0, $length($p)) = $p }',
  endsWith:
    '$endsWith := function($s, $p) { $length($p) <= $length($s) and ($length($p) = 0 or $substring($s, $length($s) - $length($p)) = $p) }',
  lowerAscii: '$lowerAscii := function($s) { $replace($s, /[A-Z]+/, function($m) { $lowercase($m.match) }) }',
  upperAscii: '$upperAscii := function($s) { $replace($s, /[a-z]+/, function($m) { $uppercase($m.match) }) }',
} as const;

export type CelHelper = keyof typeof CEL_HELPERS;

/** A translation, or the reason there is none. */
export type Translated = { ok: true; code: string } | { ok: false; reason: string };

/** Why `node` cannot be translated to JSONata, or undefined when it can. */
export function jsonataSupport(node: TypedNode): string | undefined {
  const result = celToJsonata(node, new Set());
  return result.ok ? undefined : result.reason;
}

/** A JSONata string literal (JSON's escapes are JSONata's). */
export const jsonataString = (text: string): string => JSON.stringify(text);

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** JSONata for a checked CEL expression whose `message` is `$message`; `used` collects the helpers it calls. */
export function celToJsonata(node: TypedNode, used: Set<CelHelper>): Translated {
  switch (node.op) {
    case 'const':
      return constant(node.value);
    case 'ident':
      return node.name === 'message' ? ok('$message') : no(`\`${node.name}\` is not \`message\``);
    case 'select':
    case 'has': {
      const target = celToJsonata(node.target, used);
      if (!target.ok) return target;
      const lookup = `$lookup(${target.code}, ${jsonataString(node.field)})`;
      return ok(node.op === 'has' ? `$exists(${lookup})` : lookup);
    }
    case 'list': {
      if (!node.items.every((item) => isScalar(item.type)))
        return no('a list literal of lists or objects (JSONata flattens nested sequences)');
      return all(node.items, used, (items) => `[${items.join(', ')}]`);
    }
    case 'macro':
      return no(`the \`${node.macro}\` macro`);
    case 'call':
      return call(node.fn, node.args, used);
  }
}

function constant(value: boolean | bigint | number | string): Translated {
  if (typeof value === 'string') return ok(jsonataString(value));
  if (typeof value === 'boolean') return ok(String(value));
  if (typeof value === 'bigint') {
    if (value > MAX_SAFE || value < -MAX_SAFE)
      return no(`the int ${value}, beyond ±2^53 (JSONata's numbers are doubles)`);
    return ok(value < 0n ? `(${value})` : String(value));
  }
  if (!Number.isFinite(value)) return no('a literal that is not a finite number');
  return ok(value < 0 || Object.is(value, -0) ? `(${JSON.stringify(value)})` : JSON.stringify(value));
}

const ok = (code: string): Translated => ({ ok: true, code });
const no = (what: string): Translated => ({
  ok: false,
  reason: `JSONata cannot express ${what} as CEL means it.`,
});

const isNumber = (type: CelType): boolean => type.kind === 'int' || type.kind === 'double';
const isScalar = (type: CelType): boolean => type.kind === 'bool' || type.kind === 'string' || isNumber(type);

/** Translates every node, then joins their code with `make`. */
function all(
  nodes: readonly TypedNode[],
  used: Set<CelHelper>,
  make: (codes: string[]) => string,
): Translated {
  const codes: string[] = [];
  for (const node of nodes) {
    const result = celToJsonata(node, used);
    if (!result.ok) return result;
    codes.push(result.code);
  }
  return ok(make(codes));
}

const BINARY: Record<string, string> = {
  '_-_': '-',
  '_*_': '*',
  '_==_': '=',
  '_!=_': '!=',
  '_<_': '<',
  '_<=_': '<=',
  '_>_': '>',
  '_>=_': '>=',
  '_&&_': 'and',
  '_||_': 'or',
};

function call(fn: string, args: readonly TypedNode[], used: Set<CelHelper>): Translated {
  const reason = refusal(fn, args);
  if (reason) return no(reason);
  const [a] = args;
  if (fn === '_+_')
    return all(args, used, ([x, y]) => `(${x} ${a!.type.kind === 'string' ? '&' : '+'} ${y})`);
  if (fn === '_/_') return all(args, used, ([x, y]) => `(${x} / ${y})`);
  const binary = BINARY[fn];
  if (binary) return all(args, used, ([x, y]) => `(${x} ${binary} ${y})`);
  switch (fn) {
    case '!_':
      return all(args, used, ([x]) => `$not(${x})`);
    case '-_':
      return all(args, used, ([x]) => `(-${x})`);
    case '_?_:_':
      return all(args, used, ([c, x, y]) => `(${c} ? ${x} : ${y})`);
    case '@in':
      return all(args, used, ([x, y]) => `(${x} in ${y})`);
    case 'size':
      return all(args, used, ([x]) => (a!.type.kind === 'string' ? `$length(${x})` : `$count(${x})`));
    case 'contains':
      return all(args, used, ([x, y]) => `$contains(${x}, ${y})`);
    case 'startsWith':
    case 'endsWith':
    case 'lowerAscii':
    case 'upperAscii':
      used.add(fn);
      return all(args, used, (codes) => `$${fn}(${codes.join(', ')})`);
  }
  return no(`\`${fn}\``);
}

/** Why a call the checker accepted is outside the subset, or undefined when it is in it. */
function refusal(fn: string, args: readonly TypedNode[]): string | undefined {
  const [a, b] = args;
  const kinds = args.map((arg) => arg.type.kind);
  if (fn === '_+_' && a!.type.kind === 'list') return 'lists joined by `+`';
  if (fn === '_/_' && kinds.includes('int')) return 'int division (CEL truncates it)';
  if (fn === '_%_') return '`%` (CEL int remainder)';
  if ((fn === '_==_' || fn === '_!=_') && !(isScalar(a!.type) && isScalar(b!.type)))
    return `\`${fn.slice(1, -1)}\` between lists or objects`;
  if (['_<_', '_<=_', '_>_', '_>=_'].includes(fn) && !(isNumber(a!.type) && isNumber(b!.type)))
    return `\`${fn.slice(1, -1)}\` on ${a!.type.kind}s (CEL orders strings by code point, JSONata by UTF-16 unit)`;
  if (fn === '@in' && !(b!.type.kind === 'list' && isScalar(b!.type.of)))
    return '`in` over a list of lists or objects';
  if (fn === '_[_]') return 'indexing (`[]`)';
  if (fn === 'timestamp' || kinds.includes('timestamp')) return 'timestamps';
  return undefined;
}
