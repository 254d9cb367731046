import type * as TS from 'typescript-api';
import { Narrowing } from './narrowing.js';
import type { Origin, PayloadTypes } from './payload-types.js';

/** Array methods that return the array's own items, as an array (`filter`) or one of them (`find`). */
const SAME_ARRAY = new Set([
  'filter',
  'slice',
  'sort',
  'reverse',
  'toSorted',
  'toReversed',
  'toSpliced',
  'splice',
  'concat',
  'copyWithin',
  'fill',
  'with',
]);
const ONE_ITEM = new Set(['find', 'findLast', 'at', 'pop', 'shift']);
/** Array methods whose callback's first parameter (and, for sorts, the second) is an item. */
const ITEM_CALLBACKS = new Set([
  'map',
  'forEach',
  'filter',
  'find',
  'findLast',
  'findIndex',
  'findLastIndex',
  'some',
  'every',
  'flatMap',
  'sort',
  'toSorted',
]);
/** Calls that return (a copy of) their first argument. */
const COPIES = new Set(['structuredClone', 'freeze', 'assign', 'from', 'resolve']);

/** How long a chain of values the resolver follows before it gives up with `usage-too-deep`. */
const MAX_CHAIN = 2000;

/** A chain of values longer than `MAX_CHAIN`, or code nested deeper than the compiler reads. */
export class TooDeep extends Error {
  constructor(readonly node: TS.Node | undefined) {
    super('too deep');
  }
}

/**
 * Where a value comes from within the event payloads, following the code: variables to their
 * initialisers, parameters to what callers pass and what array methods give their callbacks,
 * calls to what the function returns, array methods that return the array's items. A value whose
 * type is a payload (narrowed, in a union, a type parameter's constraint) is that payload; one the
 * code does not show is found by its type (an object or array type within payloads).
 */
export class Resolver {
  private readonly memo = new Map<TS.Node, Origin[]>();
  private depth = 0;

  private readonly narrowing: Narrowing;

  constructor(
    private readonly api: typeof TS,
    private readonly checker: TS.TypeChecker,
    private readonly types: PayloadTypes,
    /** Each function of the project -> the calls to it (for its parameters' values). */
    private readonly calls: ReadonlyMap<TS.Node, readonly TS.CallLikeExpression[]>,
  ) {
    this.narrowing = new Narrowing(api, checker, types);
  }

  origins(node: TS.Node): Origin[] {
    const known = this.memo.get(node);
    if (known) return known;
    this.memo.set(node, []); // a value defined through itself (recursion) adds nothing more
    if (++this.depth > MAX_CHAIN) throw new TooDeep(node);
    try {
      const type = this.typeOf(node);
      let found = type ? this.types.rootsOf(type) : [];
      if (found.length > 0 && type) found = this.narrowing.narrowed(node, type, found);
      if (found.length === 0) found = this.step(node);
      if (found.length === 0 && type) found = this.types.placesOf(type);
      const unique = dedupe(found);
      this.memo.set(node, unique);
      return unique;
    } finally {
      this.depth--;
    }
  }

  /** `o.name` within a payload, if the catalogue has it. */
  child(origin: Origin, name: string): Origin | undefined {
    if (origin.many) return undefined;
    const path = origin.path ? `${origin.path}.${name}` : name;
    return this.types.isField(origin.event, path) ? { event: origin.event, path } : undefined;
  }

  /** An item of an array origin. */
  item(origin: Origin): Origin | undefined {
    if (origin.many) return { event: origin.event, path: origin.path };
    const path = `${origin.path}[]`;
    return this.types.isField(origin.event, path) ? { event: origin.event, path } : undefined;
  }

  items(origins: readonly Origin[]): Origin[] {
    return origins.flatMap((origin) => this.item(origin) ?? []);
  }

  private typeOf(node: TS.Node): TS.Type | undefined {
    if (this.api.isBindingElement(node) || this.api.isSpreadElement(node)) return undefined;
    return this.checker.getTypeAtLocation(node);
  }

  private step(node: TS.Node): Origin[] {
    const api = this.api;
    if (
      api.isParenthesizedExpression(node) ||
      api.isNonNullExpression(node) ||
      api.isAsExpression(node) ||
      api.isTypeAssertionExpression(node) ||
      api.isSatisfiesExpression(node) ||
      api.isAwaitExpression(node)
    )
      return this.origins(node.expression);
    if (api.isPropertyAccessExpression(node))
      return this.origins(node.expression).flatMap((o) => this.child(o, node.name.text) ?? []);
    if (api.isElementAccessExpression(node)) return this.elementOrigins(node);
    if (api.isIdentifier(node)) return this.identifierOrigins(node);
    if (api.isBindingElement(node)) return this.bindingOrigins(node);
    if (api.isParameter(node)) return this.parameterOrigins(node);
    if (api.isConditionalExpression(node))
      return [...this.origins(node.whenTrue), ...this.origins(node.whenFalse)];
    if (api.isBinaryExpression(node)) return this.binaryOrigins(node);
    if (api.isCallExpression(node)) return this.callOrigins(node);
    if (api.isArrayLiteralExpression(node)) return this.arrayLiteralOrigins(node);
    if (api.isObjectLiteralExpression(node))
      return node.properties.flatMap((p) => (api.isSpreadAssignment(p) ? this.origins(p.expression) : []));
    return [];
  }

  /** The keys an element access reads: a literal, a union of literals, or an index of an array. */
  keysOf(node: TS.ElementAccessExpression): { names: string[]; index: boolean } {
    const argument = node.argumentExpression;
    if (this.api.isStringLiteralLike(argument)) return { names: [argument.text], index: false };
    if (this.api.isNumericLiteral(argument)) return { names: [], index: true };
    const type = this.checker.getTypeAtLocation(argument);
    const members = type.isUnion() ? type.types : [type];
    if (members.every((m) => m.isStringLiteral()))
      return { names: members.map((m) => (m as TS.StringLiteralType).value), index: false };
    return { names: [], index: (type.flags & this.api.TypeFlags.NumberLike) !== 0 };
  }

  private elementOrigins(node: TS.ElementAccessExpression): Origin[] {
    const base = this.origins(node.expression);
    const { names, index } = this.keysOf(node);
    if (index) return this.items(base);
    return base.flatMap((o) => names.flatMap((name) => this.child(o, name) ?? []));
  }

  private binaryOrigins(node: TS.BinaryExpression): Origin[] {
    const kind = node.operatorToken.kind;
    const k = this.api.SyntaxKind;
    if (kind === k.CommaToken || kind === k.EqualsToken) return this.origins(node.right);
    if (kind === k.QuestionQuestionToken || kind === k.BarBarToken || kind === k.AmpersandAmpersandToken)
      return [...this.origins(node.left), ...this.origins(node.right)];
    return [];
  }

  private identifierOrigins(node: TS.Identifier): Origin[] {
    const api = this.api;
    const symbol = this.checker.getSymbolAtLocation(node);
    const declaration = symbol?.valueDeclaration;
    if (!declaration) {
      const shorthand = api.isShorthandPropertyAssignment(node.parent)
        ? this.checker.getShorthandAssignmentValueSymbol(node.parent)?.valueDeclaration
        : undefined;
      return shorthand ? this.origins(shorthand) : [];
    }
    if (api.isVariableDeclaration(declaration)) {
      const loop = declaration.parent.parent;
      if (api.isForOfStatement(loop)) return this.items(this.origins(loop.expression));
      if (api.isForInStatement(loop)) return [];
      return declaration.initializer ? this.origins(declaration.initializer) : [];
    }
    if (api.isBindingElement(declaration) || api.isParameter(declaration)) return this.origins(declaration);
    return [];
  }

  /** `const { a, b: { c } } = value`, `([first]) => …`: the property (or item) of what is destructured. */
  private bindingOrigins(element: TS.BindingElement): Origin[] {
    const api = this.api;
    const pattern = element.parent;
    const holder = pattern.parent;
    let base: Origin[] = [];
    if (api.isVariableDeclaration(holder)) {
      const loop = holder.parent.parent;
      if (api.isForOfStatement(loop)) base = this.items(this.origins(loop.expression));
      else if (holder.initializer) base = this.origins(holder.initializer);
    } else if (api.isBindingElement(holder) || api.isParameter(holder)) base = this.origins(holder);
    if (api.isArrayBindingPattern(pattern)) return element.dotDotDotToken ? base : this.items(base);
    if (element.dotDotDotToken) return base; // `...rest` holds what is left: read through it
    const name = element.propertyName ?? element.name;
    if (api.isIdentifier(name) || api.isStringLiteral(name))
      return base.flatMap((o) => this.child(o, name.text) ?? []);
    return [];
  }

  /** A callback's parameter (an array item, a `reduce` accumulator) or what the function's callers pass. */
  private parameterOrigins(parameter: TS.ParameterDeclaration): Origin[] {
    const api = this.api;
    const fn = parameter.parent;
    const index = fn.parameters.indexOf(parameter);
    const call = fn.parent;
    if (
      (api.isArrowFunction(fn) || api.isFunctionExpression(fn)) &&
      api.isCallExpression(call) &&
      api.isPropertyAccessExpression(call.expression) &&
      call.arguments[0] === fn
    ) {
      const method = call.expression.name.text;
      const array = () => this.origins((call.expression as TS.PropertyAccessExpression).expression);
      if (method === 'reduce' || method === 'reduceRight') {
        if (index === 1) return this.items(array());
        if (index === 0)
          return [
            ...(call.arguments[1] ? this.origins(call.arguments[1]) : this.items(array())),
            ...this.returned(fn),
          ];
        return [];
      }
      if (ITEM_CALLBACKS.has(method) && (index === 0 || (index === 1 && method.includes('ort'))))
        return this.items(array());
    }
    const found: Origin[] = [];
    for (const caller of this.calls.get(fn) ?? []) {
      const args =
        api.isCallExpression(caller) || api.isNewExpression(caller) ? (caller.arguments ?? []) : [];
      if (parameter.dotDotDotToken)
        for (const arg of args.slice(index))
          found.push(...this.origins(arg).map((o) => ({ ...o, many: true })));
      else if (args[index]) found.push(...this.origins(args[index]));
    }
    return found;
  }

  private callOrigins(call: TS.CallExpression): Origin[] {
    const api = this.api;
    const callee = call.expression;
    const name = api.isPropertyAccessExpression(callee)
      ? callee.name.text
      : api.isIdentifier(callee)
        ? callee.text
        : '';
    if (COPIES.has(name) && call.arguments[0]) {
      if (name === 'assign') return call.arguments.flatMap((arg) => this.origins(arg));
      const copied = this.origins(call.arguments[0]);
      if (name === 'from' && copied.length > 0) return copied;
      if (name !== 'from' && copied.length > 0) return copied;
    }
    if (api.isPropertyAccessExpression(callee)) {
      const array = this.origins(callee.expression).filter((o) => this.item(o));
      if (array.length > 0) {
        const found = this.arrayMethod(name, array, call);
        if (found) return found;
      }
    }
    const declaration = this.checker.getResolvedSignature(call)?.declaration;
    return declaration && this.calls.has(declaration) ? this.returned(declaration) : [];
  }

  /** What an array method returns, for a receiver within payloads; undefined for another method. */
  private arrayMethod(name: string, array: Origin[], call: TS.CallExpression): Origin[] | undefined {
    if (SAME_ARRAY.has(name))
      return name === 'concat'
        ? [...array, ...call.arguments.flatMap((arg) => this.asArray(this.origins(arg)))]
        : array;
    if (ONE_ITEM.has(name)) return this.items(array);
    if (name === 'flat')
      return array.map((o) => (this.item(o) && this.item(this.item(o)!) ? this.item(o)! : o));
    const callback = call.arguments[0];
    if (!callback || !(this.api.isArrowFunction(callback) || this.api.isFunctionExpression(callback)))
      return undefined;
    if (name === 'map') return this.returned(callback).map((o) => ({ ...o, many: true }));
    if (name === 'flatMap') return this.asArray(this.returned(callback));
    if (name === 'reduce' || name === 'reduceRight')
      return [
        ...(call.arguments[1] ? this.origins(call.arguments[1]) : this.items(array)),
        ...this.returned(callback),
      ];
    return undefined;
  }

  /** Values as an array of them: an array stays, an item becomes an array of such items. */
  private asArray(origins: readonly Origin[]): Origin[] {
    return origins.map((o) => (this.item(o) ? o : { ...o, many: true }));
  }

  private arrayLiteralOrigins(node: TS.ArrayLiteralExpression): Origin[] {
    return node.elements.flatMap((element) =>
      this.api.isSpreadElement(element)
        ? this.asArray(this.origins(element.expression))
        : this.origins(element).map((o) => ({ ...o, many: true })),
    );
  }

  /** What a function returns: its expression body, or every `return` of its own body. */
  returned(fn: TS.Node): Origin[] {
    const api = this.api;
    if (api.isArrowFunction(fn) && !api.isBlock(fn.body)) return this.origins(fn.body);
    const body = (fn as TS.FunctionLikeDeclarationBase).body;
    if (!body) return [];
    const found: Origin[] = [];
    const stack: TS.Node[] = [body];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (api.isReturnStatement(node)) {
        if (node.expression) found.push(...this.origins(node.expression));
      } else if (!api.isFunctionLike(node)) api.forEachChild(node, (child) => void stack.push(child));
    }
    return found;
  }
}

function dedupe(origins: readonly Origin[]): Origin[] {
  const seen = new Map<string, Origin>();
  for (const o of origins) seen.set(`${o.event}\0${o.path}\0${o.many ? 1 : 0}`, o);
  return [...seen.values()];
}
