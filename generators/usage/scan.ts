import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as TS from 'typescript-api';
import { interfaceName } from '../load/event-key.js';
import type { Catalogue } from '../model.js';

// typescript 5.9 under an alias: the repository's `typescript` is the native 7, which has no API. Loaded
// on first use: no other command needs it (see docs/decisions/0060).
const require = createRequire(import.meta.url);
let typescript: typeof TS | undefined;
function ts(): typeof TS {
  typescript ??= require('typescript-api') as typeof TS;
  return typescript;
}

/** What a consumer project reads: for each event key, the field paths (`lines[].amount`). */
export interface ProjectUsage {
  reads: Map<string, Set<string>>;
  /** The project's source files scanned, relative paths not needed: only how many. */
  files: number;
}

/** Why a project cannot be scanned (a usage error, not a finding). */
export class UsageError extends Error {}

/** Methods of arrays whose first callback parameter is an item of the array. */
const ITEM_CALLBACKS = new Set(['map', 'forEach', 'filter', 'find', 'findLast', 'some', 'every', 'flatMap']);

/**
 * Reads the TypeScript project in `dir` (its tsconfig.json) with the type checker and collects every
 * field of the catalogue's event types it reads: property accesses, element accesses, destructuring,
 * optional chains and array callbacks, on values whose type the checker resolves to a generated event
 * interface (so `isEvent` / `assertEvent` narrowing counts like any annotation).
 */
export function scanProject(dir: string, catalogue: Catalogue): ProjectUsage {
  const api = ts();
  const configPath = api.findConfigFile(dir, api.sys.fileExists, 'tsconfig.json');
  if (!configPath || dirname(configPath) !== dir.replace(/\/$/, ''))
    throw new UsageError(`\`${dir}\` has no tsconfig.json.`);
  const parsed = api.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...api.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new UsageError(api.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new UsageError(`\`${configPath}\` cannot be read.`);
  const program = api.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const events = new Map(Object.keys(catalogue.events).map((key) => [interfaceName(key), key]));
  const reads = new Map<string, Set<string>>();
  const scanner = new Scanner(api, program, checker, events);
  const sources = program.getSourceFiles().filter((file) => !file.isDeclarationFile);
  for (const source of sources) scanner.visit(source);
  for (const [event, paths] of scanner.found) reads.set(event, pruned(paths));
  return { reads, files: sources.length };
}

/** A path read within an event: `''` for the payload itself. */
interface EventPath {
  event: string;
  path: string;
}

class Scanner {
  readonly found = new Map<string, Set<string>>();
  private readonly memo = new Map<TS.Node, EventPath | null>();

  constructor(
    private readonly api: typeof TS,
    private readonly program: TS.Program,
    private readonly checker: TS.TypeChecker,
    private readonly events: ReadonlyMap<string, string>,
  ) {}

  visit(node: TS.Node): void {
    const api = this.api;
    if (
      api.isPropertyAccessExpression(node) ||
      api.isElementAccessExpression(node) ||
      (api.isBindingElement(node) && api.isIdentifier(node.name))
    ) {
      const found = this.pathOf(node, 0);
      if (found && found.path !== '') {
        const paths = this.found.get(found.event) ?? new Set<string>();
        paths.add(found.path);
        this.found.set(found.event, paths);
      }
    }
    api.forEachChild(node, (child) => this.visit(child));
  }

  /** The event path `node` evaluates to, if it is inside an event payload. */
  private pathOf(node: TS.Node, depth: number): EventPath | undefined {
    if (depth > 64) return undefined;
    const known = this.memo.get(node);
    if (known !== undefined) return known ?? undefined;
    const found = this.rootOf(node) ?? this.stepOf(node, depth + 1);
    this.memo.set(node, found ?? null);
    return found;
  }

  /** The payload itself: a value whose type (narrowed, without null and undefined) is an event interface. */
  private rootOf(node: TS.Node): EventPath | undefined {
    if (this.api.isBindingElement(node)) return undefined;
    const type = this.checker.getNonNullableType(this.checker.getTypeAtLocation(node));
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (!symbol || !this.isPackageSymbol(symbol)) return undefined;
    const event = this.events.get(symbol.getName());
    return event ? { event, path: '' } : undefined;
  }

  private stepOf(node: TS.Node, depth: number): EventPath | undefined {
    const api = this.api;
    if (api.isPropertyAccessExpression(node)) {
      const base = this.pathOf(node.expression, depth);
      if (!base || !this.isPackageProperty(node.name)) return undefined;
      return field(base, node.name.text);
    }
    if (api.isElementAccessExpression(node)) {
      const base = this.pathOf(node.expression, depth);
      if (!base) return undefined;
      const argument = node.argumentExpression;
      if (api.isStringLiteral(argument)) return field(base, argument.text);
      return { event: base.event, path: `${base.path}[]` };
    }
    if (api.isParenthesizedExpression(node) || api.isNonNullExpression(node) || api.isAsExpression(node))
      return this.pathOf(node.expression, depth);
    if (api.isIdentifier(node)) return this.identifierPath(node, depth);
    if (api.isBindingElement(node)) return this.bindingPath(node, depth);
    return undefined;
  }

  /** A name: where its value came from (a variable's initializer, a callback's array, a destructuring). */
  private identifierPath(node: TS.Identifier, depth: number): EventPath | undefined {
    const api = this.api;
    const declaration = this.checker.getSymbolAtLocation(node)?.valueDeclaration;
    if (!declaration) return undefined;
    if (api.isBindingElement(declaration)) return this.pathOf(declaration, depth);
    if (api.isVariableDeclaration(declaration)) {
      const loop = declaration.parent.parent;
      if (api.isForOfStatement(loop)) {
        const array = this.pathOf(loop.expression, depth);
        return array ? { event: array.event, path: `${array.path}[]` } : undefined;
      }
      return declaration.initializer ? this.pathOf(declaration.initializer, depth) : undefined;
    }
    if (api.isParameter(declaration)) return this.callbackItem(declaration, depth);
    return undefined;
  }

  /** The first parameter of `array.map((item) => …)` and its kin: an item of the array. */
  private callbackItem(parameter: TS.ParameterDeclaration, depth: number): EventPath | undefined {
    const api = this.api;
    const fn = parameter.parent;
    if (!(api.isArrowFunction(fn) || api.isFunctionExpression(fn)) || fn.parameters[0] !== parameter)
      return undefined;
    const call = fn.parent;
    if (!api.isCallExpression(call) || !api.isPropertyAccessExpression(call.expression)) return undefined;
    if (!ITEM_CALLBACKS.has(call.expression.name.text)) return undefined;
    const array = this.pathOf(call.expression.expression, depth);
    return array ? { event: array.event, path: `${array.path}[]` } : undefined;
  }

  /** `const { a, b: { c } } = value` or `([first]) => …`: the property (or item) of what is destructured. */
  private bindingPath(element: TS.BindingElement, depth: number): EventPath | undefined {
    const api = this.api;
    const pattern = element.parent;
    const holder = pattern.parent;
    let base: EventPath | undefined;
    if (api.isVariableDeclaration(holder) && holder.initializer)
      base = this.pathOf(holder.initializer, depth);
    else if (api.isBindingElement(holder)) base = this.pathOf(holder, depth);
    else if (api.isParameter(holder)) base = this.rootOf(holder) ?? this.callbackItem(holder, depth);
    if (!base) return undefined;
    if (api.isArrayBindingPattern(pattern)) return { event: base.event, path: `${base.path}[]` };
    if (element.dotDotDotToken) return base; // `...rest` reads what is left: the object itself
    const name = element.propertyName ?? element.name;
    if (api.isIdentifier(name) || api.isStringLiteral(name)) return field(base, name.text);
    return undefined;
  }

  /** Whether a property is one the group packages declare (not `length`, `map` or another library member). */
  private isPackageProperty(name: TS.MemberName): boolean {
    const symbol = this.checker.getSymbolAtLocation(name);
    return symbol !== undefined && this.isPackageSymbol(symbol);
  }

  private isPackageSymbol(symbol: TS.Symbol): boolean {
    const declarations = symbol.getDeclarations() ?? [];
    return declarations.some((declaration) => {
      const file = declaration.getSourceFile();
      return file.isDeclarationFile && !this.program.isSourceFileDefaultLibrary(file);
    });
  }
}

function field(base: EventPath, name: string): EventPath {
  return { event: base.event, path: base.path ? `${base.path}.${name}` : name };
}

/** The paths without those another one reads inside (`lines` when `lines[].amount` is read). */
function pruned(paths: ReadonlySet<string>): Set<string> {
  const all = [...paths];
  return new Set(
    all.filter(
      (path) =>
        !all.some(
          (other) => other !== path && (other.startsWith(`${path}.`) || other.startsWith(`${path}[]`)),
        ),
    ),
  );
}
