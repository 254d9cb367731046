import { type HelperName, helperSource, matchesPattern, parseTimestamp } from './semantics.js';
import type { CelType, TypedNode } from './types.js';

/** What a module of compiled rules needs besides the rules' expressions: helpers and hoisted values. */
export interface RuleModuleSource {
  /** Function declarations and `const`s, to put once at the top of the module. */
  declarations: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Compiles checked rules to JavaScript over the payload (no interpreter at run time): each rule becomes an
 * expression that is true when the payload breaks it. CEL's semantics are kept where JavaScript's differ
 * (int64 as BigInt with overflow and division errors, numbers compared across int and double, `size` in
 * code points, `&&`/`||`/`all`/`exists` where an error loses to a decisive side); an evaluation error
 * lets the rule pass, as the Confluent client does (docs/decisions/0126). One compiler per module: the
 * helpers and patterns its rules use are declared once (`source`).
 */
export class RuleCompiler {
  private readonly helpers = new Set<HelperName>();

  /**
   * `fieldRead`: the name of a function `(value, key)` the module declares, through which every field is
   * read, so that a read of an absent field can throw as CEL's does (a migration's `set: {cel}`, whose
   * input is not validated at run time) rather than give `undefined`; by default fields are read plainly.
   */
  constructor(private readonly options: { fieldRead?: string } = {}) {}
  private readonly patterns = new Map<string, string>();

  /** The expression that is true when the value `root` (a JavaScript expression) breaks the rule. */
  broken(node: TypedNode, root: string): string {
    const expr = this.expr(node, root);
    if (!node.mayError) return `!${expr}`;
    return `${this.helper('celBroken')}(() => ${expr})`;
  }

  /**
   * The JavaScript giving the value of an expression of any type over `root` (a migration's `set: {cel}`):
   * CEL's representation (an int is a BigInt, a timestamp `[seconds, nanos]`); an evaluation error throws.
   */
  value(node: TypedNode, root: string): string {
    return this.expr(node, root);
  }

  /** The declarations the compiled rules need; empty when they need none. */
  source(): RuleModuleSource {
    const patterns = [...this.patterns].map(([key, name]) => {
      const { source, flags } = JSON.parse(key) as { source: string; flags: string };
      return `const ${name} = new RegExp(${JSON.stringify(source)}, ${JSON.stringify(flags)});`;
    });
    return { declarations: [helperSource(this.helpers), ...patterns].filter(Boolean).join('\n') };
  }

  private helper(name: HelperName): string {
    this.helpers.add(name);
    return name;
  }

  private expr(node: TypedNode, root: string): string {
    switch (node.op) {
      case 'const':
        return literal(node.value);
      case 'ident':
        return node.name === 'message' || node.name === 'this' ? root : variable(node.name);
      case 'select':
        if (this.options.fieldRead)
          return `${this.options.fieldRead}(${this.expr(node.target, root)}, ${JSON.stringify(node.field)})`;
        return `${this.expr(node.target, root)}${member(node.field)}`;
      case 'has':
        return `Object.hasOwn(${this.expr(node.target, root)}, ${JSON.stringify(node.field)})`;
      case 'list':
        return `[${node.items.map((item) => this.expr(item, root)).join(', ')}]`;
      case 'macro':
        return this.macro(node, root);
      case 'call':
        return this.call(node.fn, node.args, root);
    }
  }

  private macro(node: Extract<TypedNode, { op: 'macro' }>, root: string): string {
    const range = this.expr(node.range, root);
    const v = variable(node.variable);
    const test = node.test ? `(${v}) => ${this.expr(node.test, root)}` : '';
    const mayError = node.test?.mayError === true;
    switch (node.macro) {
      case 'all':
        return mayError ? `${this.helper('celAll')}(${range}, ${test})` : `${range}.every(${test})`;
      case 'exists':
        return mayError ? `${this.helper('celExists')}(${range}, ${test})` : `${range}.some(${test})`;
      case 'exists_one':
        return `${this.helper('celExistsOne')}(${range}, ${test})`;
      case 'filter':
        return `${range}.filter(${test})`;
      case 'map': {
        const step = `(${v}) => ${this.expr(node.step!, root)}`;
        return node.test ? `${range}.filter(${test}).map(${step})` : `${range}.map(${step})`;
      }
    }
  }

  private call(fn: string, args: TypedNode[], root: string): string {
    const code = args.map((arg) => this.expr(arg, root));
    const [a, b] = code;
    const [x, y] = args.map((arg) => arg.type);
    switch (fn) {
      case '_&&_':
      case '_||_': {
        const either = args[0]!.mayError || args[1]!.mayError;
        if (!either) return `(${a} ${fn === '_&&_' ? '&&' : '||'} ${b})`;
        return `${this.helper(fn === '_&&_' ? 'celAnd' : 'celOr')}(() => ${a}, () => ${b})`;
      }
      case '_?_:_':
        return `(${a} ? ${b} : ${code[2]})`;
      case '!_':
        return `!${a}`;
      case '-_':
        return x!.kind === 'int' ? `${this.helper('celInt')}(-${a})` : `(-${a})`;
      case '_+_':
      case '_-_':
      case '_*_':
      case '_/_':
      case '_%_':
        return this.arithmetic(fn, a!, b!, x!);
      case '_==_':
      case '_!=_':
        return this.equality(fn === '_!=_', a!, b!, x!, y!);
      case '_<_':
      case '_<=_':
      case '_>_':
      case '_>=_':
        return this.order(fn.slice(1, -1), a!, b!, x!, y!);
      case '@in':
        return this.membership(a!, b!, x!);
    }
    return this.function(fn, args, code);
  }

  private arithmetic(fn: string, a: string, b: string, type: CelType): string {
    const op = fn.slice(1, -1);
    if (type.kind === 'int') {
      if (op === '/') return `${this.helper('celDiv')}(${a}, ${b})`;
      if (op === '%') return `${this.helper('celMod')}(${a}, ${b})`;
      return `${this.helper('celInt')}(${a} ${op} ${b})`;
    }
    if (type.kind === 'list') return `${a}.concat(${b})`;
    return `(${a} ${op} ${b})`;
  }

  private equality(negated: boolean, a: string, b: string, x: CelType, y: CelType): string {
    const not = negated ? '!' : '=';
    if (x.kind === 'timestamp') return `(${this.helper('celCompareTimestamps')}(${a}, ${b}) ${not}== 0)`;
    // An int (BigInt) and a double (number) are equal when they are the same number: loose equality.
    if (x.kind !== y.kind) return `(${a} ${not}= ${b})`;
    return `(${a} ${not}== ${b})`;
  }

  private order(op: string, a: string, b: string, x: CelType, y: CelType): string {
    // An int literal beside a double is that double, made once here rather than per payload.
    const folded = (code: string) =>
      /^\(-?\d+n\)$/.test(code) ? `(${Number(BigInt(code.slice(1, -2)))})` : undefined;
    if (x.kind === 'int' && y.kind === 'double' && folded(a)) return `(${folded(a)} ${op} ${b})`;
    if (x.kind === 'double' && y.kind === 'int' && folded(b)) return `(${a} ${op} ${folded(b)})`;
    if (x.kind === 'timestamp') return `(${this.helper('celCompareTimestamps')}(${a}, ${b}) ${op} 0)`;
    // `@bufbuild/cel` compares an int with a double as two doubles (the int rounded).
    if (x.kind === 'int' && y.kind === 'double') return `(Number(${a}) ${op} ${b})`;
    if (x.kind === 'double' && y.kind === 'int') return `(${a} ${op} Number(${b}))`;
    return `(${a} ${op} ${b})`;
  }

  private membership(a: string, b: string, x: CelType): string {
    if (x.kind === 'string' || x.kind === 'bool') return `${b}.includes(${a})`;
    if (x.kind === 'timestamp') {
      return `((t) => ${b}.some((u) => ${this.helper('celCompareTimestamps')}(t, u) === 0))(${a})`;
    }
    return `${this.helper('celIn')}(${a}, ${b})`;
  }

  private function(fn: string, args: TypedNode[], code: string[]): string {
    const [a, ...rest] = code;
    switch (fn) {
      case '_[_]':
        return `${this.helper('celIndex')}(${a}, ${rest[0]})`;
      case 'size':
        return args[0]!.type.kind === 'string' ? `${this.helper('celSize')}(${a})` : `BigInt(${a}.length)`;
      case 'timestamp': {
        const arg = args[0]!;
        if (arg.op === 'const') return JSON.stringify(parseTimestamp(arg.value as string));
        return `${this.helper('celTimestamp')}(${a})`;
      }
      case 'matches':
        return `${this.pattern(args[1]!)}.test(${a})`;
      case 'contains':
        return `${a}.includes(${rest[0]})`;
      case 'startsWith':
      case 'endsWith':
        return `${a}.${fn}(${rest[0]})`;
    }
    const name = `cel${fn[0]!.toUpperCase()}${fn.slice(1)}` as HelperName;
    return `${this.helper(name)}(${code.join(', ')})`;
  }

  private pattern(node: TypedNode): string {
    const compiled = matchesPattern(node.op === 'const' ? String(node.value) : '');
    if (typeof compiled === 'string') throw new Error(`unchecked pattern: ${compiled}`);
    const key = JSON.stringify(compiled);
    let name = this.patterns.get(key);
    if (!name) {
      name = `celPattern${this.patterns.size}`;
      this.patterns.set(key, name);
    }
    return name;
  }
}

function literal(value: boolean | bigint | number | string): string {
  switch (typeof value) {
    case 'bigint':
      return `(${value}n)`;
    case 'number':
      return Object.is(value, -0) ? '(-0)' : `(${String(value)})`;
    default:
      return JSON.stringify(value);
  }
}

/** The JavaScript name of a comprehension's variable: `$` is never in a CEL name, so none collides. */
function variable(name: string): string {
  return `cel$${name}`;
}

function member(field: string): string {
  return IDENTIFIER.test(field) && field !== '__proto__' ? `.${field}` : `[${JSON.stringify(field)}]`;
}
