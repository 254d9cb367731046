import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MAX_RULE_DEPTH, parsedPastLimit, tooDeep } from './depth.js';
import type { RuleProblem } from './types.js';

/**
 * The parts of `@bufbuild/cel`'s AST (`cel.expr.Expr`, protobuf-es messages) the checker reads; typed
 * here so that eventry does not import the spec package the parser's types come from.
 */
export interface CelExpr {
  id: bigint;
  exprKind:
    | { case: 'constExpr'; value: { constantKind: { case: string | undefined; value?: unknown } } }
    | { case: 'identExpr'; value: { name: string } }
    | { case: 'selectExpr'; value: { operand?: CelExpr; field: string; testOnly: boolean } }
    | { case: 'callExpr'; value: { target?: CelExpr; function: string; args: CelExpr[] } }
    | { case: 'listExpr'; value: { elements: CelExpr[]; optionalIndices: number[] } }
    | { case: 'structExpr'; value: unknown }
    | { case: 'comprehensionExpr'; value: CelComprehension }
    | { case: undefined; value?: undefined };
}

/** A macro as the parser expands it (`all`, `exists`, `map`, ...). */
export interface CelComprehension {
  iterVar: string;
  iterVar2: string;
  iterRange?: CelExpr;
  accuVar: string;
  accuInit?: CelExpr;
  loopCondition?: CelExpr;
  loopStep?: CelExpr;
  result?: CelExpr;
}

/** A parsed expression and the offset of each of its nodes in the text (0-based). */
export interface ParsedRule {
  expr: CelExpr;
  offsetOf(node: CelExpr): number;
}

interface BuilderClass {
  prototype: { nextExpr(offset: number, kind: unknown): CelExpr };
}

interface CelParser {
  parse(text: string): { expr?: CelExpr };
  /** Offsets by node id, from the parser's builder (see `loadParser`). */
  positions(): Record<string, number> | undefined;
}

let parser: CelParser | undefined;

/**
 * `@bufbuild/cel`'s parser (the one the Confluent client runs), loaded on the first rule. Its `parse`
 * drops the source positions its builder records; the builder is one object of the parser's module, so
 * the first node it makes tells which, and its positions are read from it (docs/decisions/0125).
 */
function loadParser(): CelParser {
  if (parser) return parser;
  const require = createRequire(import.meta.url);
  const cel = require('@bufbuild/cel') as { parse(text: string): { expr?: CelExpr } };
  const builderModule = require(join(dirname(require.resolve('@bufbuild/cel')), 'builder.js')) as {
    default?: BuilderClass;
  };
  let builder: { sourceInfo?: { positions?: Record<string, number> } } | undefined;
  const proto = builderModule.default?.prototype;
  if (proto && typeof proto.nextExpr === 'function') {
    const nextExpr = proto.nextExpr;
    proto.nextExpr = function (this: typeof builder, offset, kind) {
      builder = this;
      return nextExpr.call(this, offset, kind);
    };
  }
  parser = { parse: (text) => cel.parse(text), positions: () => builder?.sourceInfo?.positions };
  return parser;
}

/** Parses a rule's expression, or says where its syntax is wrong. */
export function parseRule(text: string): { parsed: ParsedRule } | { problem: RuleProblem } {
  const celParser = loadParser();
  let expr: CelExpr | undefined;
  try {
    expr = celParser.parse(text).expr;
  } catch (error) {
    return { problem: syntaxProblem(error) };
  }
  if (!expr)
    return { problem: { code: 'rule-syntax-error', offset: 0, message: 'The expression is empty.' } };
  const positions = celParser.positions();
  const offsetOf = (node: CelExpr) => clampOffset(positions?.[node.id.toString()], text.length);
  const past = parsedPastLimit(expr);
  if (past) return { problem: tooDeep(offsetOf(past)) };
  return { parsed: { expr, offsetOf } };
}

function clampOffset(offset: number | undefined, length: number): number {
  return offset === undefined || offset < 0 ? 0 : Math.min(offset, length);
}

/** The parser's error as a problem at its offset; its text without the `<input>:line:column:` prefix. */
function syntaxProblem(error: unknown): RuleProblem {
  // The parser recurses per level of nesting: an expression deep enough overflows its stack. (It
  // throws other RangeErrors too, for a code point out of range: those are syntax errors.)
  if (error instanceof RangeError && /call stack/i.test(error.message))
    return tooDeep(
      0,
      `The expression nests too deeply to parse; eventry compiles at most ${MAX_RULE_DEPTH} levels.`,
    );
  const located = error as {
    location?: { start?: { offset?: number } };
    rawMessage?: unknown;
    message?: unknown;
  };
  const raw = typeof located.rawMessage === 'string' ? located.rawMessage : String(located.message ?? error);
  return {
    code: 'rule-syntax-error',
    offset: located.location?.start?.offset ?? 0,
    message: `The expression is not valid CEL: ${raw.replace(/^<input>:\d+:\d+: /, '')}.`,
  };
}
