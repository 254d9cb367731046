import type * as TS from 'typescript-api';
import type { Origin, PayloadTypes } from './payload-types.js';

/** A guard call on a value: `isEvent(key, value)` or `assertEvent(key, value)`, by its key. */
interface Guard {
  key: string;
  call: TS.Node;
}

/**
 * Which events a payload value is where the code reads it, beyond its type: a payload type shared by
 * several events (`same_as`), and guard keys whose payload the narrowed type absorbed.
 */
export class Narrowing {
  private readonly guards = new Map<TS.Symbol, Guard[]>();

  constructor(
    private readonly api: typeof TS,
    private readonly checker: TS.TypeChecker,
    private readonly types: PayloadTypes,
  ) {}

  /**
   * The events a payload value is, refined by what the code names: a payload type shared by several
   * events (`same_as`) is the events named in the value's annotation (or its function's return type,
   * or its type parameter's constraint) or in an `isEvent` / `assertEvent` key on it, all of them when
   * none is named; and a guard key whose payload the narrowed type absorbed (`V2 extends V1`, so
   * `V1 | V2` is `V1`) is added.
   */
  narrowed(node: TS.Node, type: TS.Type, roots: Origin[]): Origin[] {
    const symbol = this.symbolOf(node);
    const guards = symbol ? this.guardKeys(symbol).map((guard) => guard.key) : [];
    const named = new Set([...this.annotatedEvents(node, symbol), ...guards]);
    const typeOf = (event: string) => this.types.rootTypeOf(event);
    const shared = (root: Origin) =>
      roots.some((other) => other.event !== root.event && typeOf(other.event) === typeOf(root.event));
    const kept = roots.some((root) => shared(root) && named.has(root.event))
      ? roots.filter((root) => !shared(root) || named.has(root.event))
      : [...roots];
    for (const event of this.dominating(node, symbol)) {
      const guarded = this.types.rootTypeOf(event);
      if (
        guarded &&
        !kept.some((root) => root.event === event) &&
        this.checker.isTypeAssignableTo(guarded, type)
      )
        kept.push({ event, path: '' });
    }
    return kept;
  }

  private symbolOf(node: TS.Node): TS.Symbol | undefined {
    const api = this.api;
    if (api.isParameter(node) || api.isVariableDeclaration(node))
      return this.checker.getSymbolAtLocation(node.name);
    return api.isIdentifier(node) ? this.checker.getSymbolAtLocation(node) : undefined;
  }

  /** Keys of `isEvent(key, value)` / `assertEvent(key, value)` on this symbol, in its function. */
  private guardKeys(symbol: TS.Symbol): Guard[] {
    const known = this.guards.get(symbol);
    if (known) return known;
    const api = this.api;
    const declaration = symbol.valueDeclaration;
    const scope =
      declaration &&
      (api.findAncestor(declaration.parent, api.isFunctionLike) ?? declaration.getSourceFile());
    const keys: Guard[] = [];
    const stack: TS.Node[] = scope ? [scope] : [];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (api.isCallExpression(next) && next.arguments.length >= 2) {
        const [key, value] = next.arguments;
        if (key && value && api.isIdentifier(value) && this.checker.getSymbolAtLocation(value) === symbol) {
          const keyType = this.checker.getTypeAtLocation(key);
          for (const member of keyType.isUnion() ? keyType.types : [keyType])
            if (member.isStringLiteral() && this.types.rootTypeOf(member.value))
              keys.push({ key: member.value, call: next });
        }
      }
      api.forEachChild(next, (child) => void stack.push(child));
    }
    this.guards.set(symbol, keys);
    return keys;
  }

  /**
   * Guard keys on `symbol` that hold where `node` is: in the condition of an `if`, `?:`, `while` or
   * `case` around it, left of an `&&` / `||` it is right of, or in a statement before it (`assertEvent`,
   * an early return).
   */
  private dominating(node: TS.Node, symbol: TS.Symbol | undefined): string[] {
    if (!symbol) return [];
    const api = this.api;
    const guards = this.guardKeys(symbol);
    if (guards.length === 0) return [];
    const ranges: { pos: number; end: number }[] = [];
    for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
      if ((api.isIfStatement(parent) || api.isWhileStatement(parent)) && child !== parent.expression)
        ranges.push(parent.expression);
      else if (api.isConditionalExpression(parent) && child !== parent.condition)
        ranges.push(parent.condition);
      else if (api.isBinaryExpression(parent) && child === parent.right) ranges.push(parent.left);
      else if (api.isCaseClause(parent) && child !== parent.expression) ranges.push(parent.expression);
      if (
        (api.isBlock(parent) || api.isSourceFile(parent) || api.isCaseClause(parent)) &&
        api.isStatement(child)
      )
        ranges.push({ pos: parent.statements[0]?.pos ?? child.pos, end: child.pos });
      if (api.isFunctionLike(parent)) break;
    }
    return guards
      .filter(({ call }) => ranges.some((range) => call.pos >= range.pos && call.end <= range.end))
      .map(({ key }) => key);
  }

  /** Events named by the type annotations a value comes with (following type parameters' constraints). */
  private annotatedEvents(node: TS.Node, symbol: TS.Symbol | undefined): string[] {
    const api = this.api;
    const declaration = symbol?.valueDeclaration;
    const stack: TS.Node[] = [];
    if (
      declaration &&
      (api.isParameter(declaration) || api.isVariableDeclaration(declaration)) &&
      declaration.type
    )
      stack.push(declaration.type);
    if (api.isCallExpression(node)) {
      const signature = this.checker.getResolvedSignature(node)?.declaration;
      if (signature && !api.isJSDocSignature(signature) && signature.type) stack.push(signature.type);
    }
    const found: string[] = [];
    for (let seen = 0; stack.length > 0 && seen < 200; seen++) {
      const next = stack.pop()!;
      if (api.isTypeReferenceNode(next) && api.isIdentifier(next.typeName)) {
        const event = this.types.eventNamed(next.typeName.text);
        if (event) found.push(event);
        const target = this.checker.getSymbolAtLocation(next.typeName)?.getDeclarations()?.[0];
        if (target && api.isTypeParameterDeclaration(target) && target.constraint)
          stack.push(target.constraint);
      }
      api.forEachChild(next, (child) => void stack.push(child));
    }
    return found;
  }
}
