import type * as TS from 'typescript-api';
import type { Resolver } from './origins.js';
import type { Origin, PayloadTypes } from './payload-types.js';

/** A located finding of the scan: a read declared at a wider path (warning) or one it cannot name (error). */
export interface UsageFinding {
  code: 'usage-unresolved' | 'usage-unknown-field';
  severity: 'warning' | 'error';
  /** The source file, as the compiler names it (absolute). */
  file: string;
  line: number;
  column: number;
  message: string;
}

/** `Object.…` functions that read every field of their argument. */
const READS_ALL = new Set(['values', 'entries', 'keys']);

/**
 * Walks the project's own source files (iteratively: nesting costs no stack) and records every field
 * of a payload the code reads; what it cannot resolve is recorded at the nearest path it can name
 * (`lines[].*`, `*`) with a `usage-unresolved` warning, and a key no version has is an error.
 */
export class ReadCollector {
  readonly reads = new Map<string, Set<string>>();
  readonly findings: UsageFinding[] = [];

  constructor(
    private readonly api: typeof TS,
    private readonly checker: TS.TypeChecker,
    private readonly types: PayloadTypes,
    private readonly resolver: Resolver,
  ) {}

  walk(source: TS.SourceFile): void {
    const stack: TS.Node[] = [source];
    while (stack.length > 0) {
      const node = stack.pop()!;
      this.visit(node);
      const children: TS.Node[] = [];
      this.api.forEachChild(node, (child) => void children.push(child));
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }

  private visit(node: TS.Node): void {
    const api = this.api;
    if (api.isPropertyAccessExpression(node))
      this.readProperty(node, node.expression, [node.name.text], node.name);
    else if (api.isElementAccessExpression(node)) this.readElement(node);
    else if (api.isBindingElement(node)) this.readBinding(node);
    else if (api.isCallExpression(node) || api.isNewExpression(node)) this.readArguments(node);
  }

  private record(origin: Origin, path = origin.path): void {
    const paths = this.reads.get(origin.event) ?? new Set<string>();
    paths.add(path === '' ? '*' : path);
    this.reads.set(origin.event, paths);
  }

  /** Records `origin`'s whole value (`path.*`, `*`) and, unless `quiet`, says why at `node`. */
  private recordAll(origin: Origin, node: TS.Node, why: string | undefined): void {
    const path = origin.path === '' ? '*' : `${origin.path}.*`;
    this.record(origin, path);
    if (why)
      this.report(
        'usage-unresolved',
        'warning',
        node,
        `${why}: declared as \`${path}\` of \`${origin.event}\`.`,
      );
  }

  private report(
    code: UsageFinding['code'],
    severity: UsageFinding['severity'],
    node: TS.Node,
    message: string,
  ) {
    const source = node.getSourceFile();
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    this.findings.push({
      code,
      severity,
      file: source.fileName,
      line: line + 1,
      column: character + 1,
      message,
    });
  }

  /** A read of `names` (one, or a union of literal keys) on `base`. */
  private readProperty(
    node: TS.Node,
    base: TS.Expression,
    names: string[],
    nameNode: TS.Node | undefined,
  ): void {
    const symbol = nameNode ? this.checker.getSymbolAtLocation(nameNode) : undefined;
    const declarations = symbol?.getDeclarations() ?? [];
    const ofPackage = declarations.some((d) => this.types.isPackageDeclaration(d));
    if (symbol && !ofPackage) return; // `length`, `map`, a property of the team's own types
    const parent = node.parent;
    if (!symbol && this.api.isCallExpression(parent) && parent.expression === node) return; // a method: payloads have none
    let origins = this.resolver.origins(base).filter((o) => !o.many);
    if (origins.length === 0 && ofPackage)
      origins = declarations.flatMap((d) => {
        const declaring = this.checker.getTypeAtLocation(d.parent);
        return [...this.types.rootsOf(declaring), ...this.types.placesOf(declaring)];
      });
    if (origins.length === 0 && ofPackage) origins = this.types.rootsOf(this.checker.getTypeAtLocation(base));
    if (origins.length === 0) return; // not a payload: an `any` of the team's own
    const found = origins.flatMap((o) => names.flatMap((name) => this.resolver.child(o, name) ?? []));
    for (const origin of found) this.record(origin);
    if (found.length > 0) return;
    const shown = names.map((name) => `\`${name}\``).join(', ');
    const open = origins.filter((o) => this.types.isField(o.event, o.path ? `${o.path}.x` : 'x'));
    if (open.length > 0) {
      for (const origin of open) this.recordAll(origin, node, `reads ${shown}, which is not a field path`);
      return;
    }
    const where = origins.map((o) => `\`${o.path || '(the payload)'}\` of \`${o.event}\``).join(', ');
    this.report(
      'usage-unknown-field',
      'error',
      node,
      `reads ${shown} of ${where}, which no version of the event has.`,
    );
  }

  private readElement(node: TS.ElementAccessExpression): void {
    const { names, index } = this.resolver.keysOf(node);
    if (names.length > 0) {
      const literal = this.api.isStringLiteralLike(node.argumentExpression)
        ? node.argumentExpression
        : undefined;
      this.readProperty(node, node.expression, names, literal);
      return;
    }
    const origins = this.resolver.origins(node.expression);
    if (origins.length === 0) return;
    if (index) {
      const items = this.resolver.items(origins);
      for (const origin of items) this.record(origin);
      if (items.length > 0) return;
    }
    for (const origin of origins.filter((o) => !o.many))
      this.recordAll(origin, node, 'a computed key eventry cannot name');
  }

  private readBinding(node: TS.BindingElement): void {
    const api = this.api;
    if (node.dotDotDotToken) return; // the rest is read where it is used
    const name = node.propertyName;
    if (name && api.isComputedPropertyName(name)) {
      for (const origin of this.resolver.origins(node.parent.parent))
        if (!origin.many) this.recordAll(origin, node, 'a computed key eventry cannot name');
      return;
    }
    if (!api.isIdentifier(node.name)) return; // a nested pattern: its elements are the reads
    for (const origin of this.resolver.origins(node)) this.record(origin);
  }

  /**
   * A payload value (an object or array within one, or the payload) passed where the code it reaches
   * cannot be followed: `Object.values(e)` reads every field; a function outside the project whose
   * parameter type does not hold payload types (`JSON.stringify(e)`, `log(e)`) is declared as reading all.
   */
  private readArguments(call: TS.CallExpression | TS.NewExpression): void {
    const api = this.api;
    const args = call.arguments ?? [];
    if (args.length === 0) return;
    const callee = call.expression;
    if (
      api.isPropertyAccessExpression(callee) &&
      READS_ALL.has(callee.name.text) &&
      api.isIdentifier(callee.expression) &&
      callee.expression.text === 'Object'
    ) {
      for (const origin of this.resolver.origins(args[0]!))
        if (!origin.many) this.recordAll(origin, call, undefined);
      return;
    }
    const calleeSymbol = this.checker.getSymbolAtLocation(
      api.isPropertyAccessExpression(callee) ? callee.name : callee,
    );
    if (calleeSymbol?.getDeclarations()?.some((d) => this.types.isPackageDeclaration(d))) return;
    const declaration = this.checker.getResolvedSignature(call)?.declaration;
    if (declaration && !declaration.getSourceFile().isDeclarationFile && hasBody(declaration)) return; // followed
    if (declaration && this.types.isPackageDeclaration(declaration)) return;
    if (!declaration && api.isIdentifier(callee)) {
      const value = this.checker.getSymbolAtLocation(callee)?.valueDeclaration;
      if (value && !value.getSourceFile().isDeclarationFile) return;
    }
    if (declaration && isGroupRuntime(declaration)) return;
    for (const arg of args) this.escape(arg, call);
  }

  private escape(arg: TS.Expression, call: TS.Node): void {
    const expression = this.api.isSpreadElement(arg) ? arg.expression : arg;
    const origins = this.resolver
      .origins(expression)
      .map((o) => (o.many ? { event: o.event, path: o.path } : o))
      .filter((o) => this.types.isComposite(o.event, o.path));
    if (origins.length === 0) return;
    const expected = this.checker.getContextualType(arg);
    if (expected && this.types.holdsPayload(expected)) return;
    const name = calleeName(this.api, call);
    for (const origin of origins)
      this.recordAll(origin, arg, `passed whole to ${name ? `\`${name}\`` : 'code'} eventry cannot see into`);
  }
}

function hasBody(declaration: TS.Node): boolean {
  return (declaration as TS.FunctionLikeDeclarationBase).body !== undefined;
}

/** The group packages' own functions (`isEvent`, `validate`): they check a payload, they do not read it for the team. */
function isGroupRuntime(declaration: TS.Node): boolean {
  return /[\\/]runtime[\\/][^\\/]*\.d\.ts$/.test(declaration.getSourceFile().fileName);
}

function calleeName(api: typeof TS, call: TS.Node): string | undefined {
  if (!api.isCallExpression(call) && !api.isNewExpression(call)) return undefined;
  const callee = call.expression;
  if (api.isIdentifier(callee)) return callee.text;
  if (api.isPropertyAccessExpression(callee)) return callee.getText().slice(0, 60);
  return undefined;
}
