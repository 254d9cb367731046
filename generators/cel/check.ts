import type { Field, FieldType } from '../model.js';
import { checkCall } from './check-call.js';
import { type CheckContext, mismatch, pathOf, type Scope, unsupported, withGuards } from './check-context.js';
import { typedPastLimit, typedTooDeep } from './depth.js';
import { type CelComprehension, type CelExpr, type ParsedRule, parseRule } from './parse.js';
import {
  aType,
  type CelType,
  cap,
  celTypeName,
  type MacroName,
  type RuleProblem,
  type RuleScope,
  type TypedNode,
} from './types.js';

/** What a rule's expression checked to: its typed tree, or every problem found in it. */
export type CheckedRule = { ok: true; node: TypedNode } | { ok: false; problems: RuleProblem[] };

/**
 * Parses and type-checks a rule's expression against the fields it reads (see `RuleScope`): unknown
 * fields, type mismatches, optional fields read without a `has()` guard, anything outside the subset
 * eventry compiles. Every problem is reported, none skipped.
 */
export function checkRule(text: string, rule: RuleScope): CheckedRule {
  const checked = checkExpression(text, rule);
  if (checked.ok && checked.node.type.kind !== 'bool') {
    const message = `A rule is a condition: the expression must be a bool, not ${aType(checked.node.type)}.`;
    return { ok: false, problems: [{ code: 'rule-type-mismatch', offset: 0, message }] };
  }
  return checked;
}

/**
 * Parses and type-checks an expression of any result type over the same scope as a rule (a migration's
 * `set: {cel}` over the old payload): the same problems as `checkRule`, but the value need not be a bool.
 */
export function checkExpression(text: string, scope: RuleScope): CheckedRule {
  const parsed = parseRule(text);
  if ('problem' in parsed) return { ok: false, problems: [parsed.problem] };
  const ctx = createContext(parsed.parsed, scope);
  const root: CelType = { kind: 'object', name: scope.name, fields: scope.fields };
  const node = ctx.visit(parsed.parsed.expr, { vars: new Map([[scope.variable, root]]), present: new Set() });
  if (ctx.problems.length > 0 || !node) return { ok: false, problems: ctx.problems };
  const past = typedPastLimit(node);
  if (past) return { ok: false, problems: [typedTooDeep(past.offset)] };
  return { ok: true, node };
}

function createContext(parsed: ParsedRule, rule: RuleScope): CheckContext {
  const ctx: CheckContext = {
    problems: [],
    rule,
    offsetOf: parsed.offsetOf,
    visit: (expr, scope) => (expr ? visit(ctx, expr, scope) : undefined),
  };
  return ctx;
}

function visit(ctx: CheckContext, expr: CelExpr, scope: Scope): TypedNode | undefined {
  const offset = ctx.offsetOf(expr);
  const kind = expr.exprKind;
  switch (kind.case) {
    case 'constExpr':
      return constant(ctx, kind.value.constantKind, offset);
    case 'identExpr':
      return ident(ctx, kind.value.name, scope, offset);
    case 'selectExpr':
      return select(ctx, kind.value, scope, offset);
    case 'callExpr':
      return checkCall(ctx, kind.value, scope, offset);
    case 'listExpr':
      return list(ctx, kind.value.elements, scope, offset);
    case 'comprehensionExpr':
      return macro(ctx, kind.value, scope, offset);
    default:
      return unsupported(ctx, offset, 'Message and map literals are outside what eventry compiles.');
  }
}

function constant(
  ctx: CheckContext,
  constant: { case: string | undefined; value?: unknown },
  offset: number,
): TypedNode | undefined {
  const base = { op: 'const' as const, offset, mayError: false };
  switch (constant.case) {
    case 'boolValue':
      return { ...base, type: { kind: 'bool' }, value: constant.value as boolean };
    case 'int64Value':
      return { ...base, type: { kind: 'int' }, value: constant.value as bigint };
    case 'doubleValue':
      return { ...base, type: { kind: 'double' }, value: constant.value as number };
    case 'stringValue':
      return { ...base, type: { kind: 'string' }, value: constant.value as string };
    default: {
      const what = { uint64Value: 'Unsigned integers (`1u`)', bytesValue: 'Bytes', nullValue: '`null`' };
      const name = what[constant.case as keyof typeof what] ?? 'This literal';
      return unsupported(
        ctx,
        offset,
        `${name} cannot appear in a rule: JSON payloads have none.`,
        'Compare numbers with `1` or `1.0`.',
      );
    }
  }
}

function ident(ctx: CheckContext, name: string, scope: Scope, offset: number): TypedNode | undefined {
  const type = scope.vars.get(name);
  if (type) return { op: 'ident', name, type, offset, mayError: false };
  const other = ctx.rule.variable === 'message' ? 'this' : 'message';
  ctx.problems.push({
    code: 'rule-unknown-field',
    offset,
    message: `\`${name}\` is not defined: a rule ${ctx.rule.variable === 'message' ? 'of an event' : 'of a shape'} reads \`${ctx.rule.variable}\`.`,
    ...(name === other ? { hint: `Write \`${ctx.rule.variable}\` instead of \`${other}\`.` } : {}),
  });
  return undefined;
}

function select(
  ctx: CheckContext,
  value: { operand?: CelExpr; field: string; testOnly: boolean },
  scope: Scope,
  offset: number,
): TypedNode | undefined {
  const target = ctx.visit(value.operand, scope);
  if (!target) return undefined;
  // The parser places a field at its dot: the problem points at the name after it.
  const field = fieldOf(ctx, target, value.field, offset + 1);
  if (!field) return undefined;
  if (value.testOnly) {
    return {
      op: 'has',
      target,
      field: value.field,
      type: { kind: 'bool' },
      offset,
      mayError: target.mayError,
    };
  }
  const path = pathOf(target);
  const known = path !== undefined && scope.present.has(`${path}.${value.field}`);
  if (!field.required && !known) {
    const written = path === undefined ? value.field : `${path}.${value.field}`;
    ctx.problems.push({
      code: 'rule-unguarded-field',
      offset: offset + 1,
      message: `\`${written}\` is optional: a payload without it makes the rule an error, which the Confluent client lets pass.`,
      hint: `Guard it: \`has(${written}) && ...\` (or \`!has(${written}) || ...\`, or a \`? :\` on has()).`,
    });
    return undefined;
  }
  const type = celTypeOf(ctx.rule, field.type);
  return { op: 'select', target, field: value.field, type, offset, mayError: target.mayError };
}

function fieldOf(ctx: CheckContext, target: TypedNode, name: string, offset: number): Field | undefined {
  const type = target.type;
  if (type.kind === 'map') {
    return unsupported(
      ctx,
      offset,
      `\`${name}\` is read from a free object (\`object\`), whose fields the catalogue does not list.`,
      'Give the field a named shape, so a rule knows its fields.',
    );
  }
  if (type.kind !== 'object') {
    return mismatch(ctx, offset, `${cap(aType(type))} has no field \`${name}\`.`);
  }
  const field = type.fields.find((candidate) => candidate.name === name);
  if (field) return field;
  ctx.problems.push({
    code: 'rule-unknown-field',
    offset,
    message: `\`${type.name}\` has no field \`${name}\`.`,
    unknown: name,
    candidates: type.fields.map((candidate) => candidate.name),
  });
  return undefined;
}

/** The CEL type a field's JSON value has when the Confluent client binds the payload. */
function celTypeOf(rule: RuleScope, type: FieldType): CelType {
  switch (type.kind) {
    case 'string':
      return type.format === 'date-time' ? { kind: 'string', dateTime: true } : { kind: 'string' };
    case 'integer':
    case 'number':
      return { kind: 'double' };
    case 'boolean':
      return { kind: 'bool' };
    case 'array':
      return { kind: 'list', of: celTypeOf(rule, type.items) };
    case 'shape':
      return { kind: 'object', name: type.name, fields: rule.shapeFields(type.name) ?? [] };
    default:
      return { kind: 'map' };
  }
}

function list(ctx: CheckContext, elements: CelExpr[], scope: Scope, offset: number): TypedNode | undefined {
  if (elements.length === 0) {
    return unsupported(ctx, offset, 'An empty list literal has no element type.', 'Use `size(x) == 0`.');
  }
  const items: TypedNode[] = [];
  for (const element of elements) {
    const item = ctx.visit(element, scope);
    if (!item) return undefined;
    items.push(item);
  }
  const first = celTypeName(items[0]!.type);
  const other = items.find((item) => celTypeName(item.type) !== first);
  if (other) {
    return mismatch(
      ctx,
      other.offset,
      `A list literal mixes ${first} and ${celTypeName(other.type)}.`,
      'Write every element with one type (`1.0` for a double).',
    );
  }
  const mayError = items.some((item) => item.mayError);
  return { op: 'list', items, type: { kind: 'list', of: items[0]!.type }, offset, mayError };
}

/** The macro a comprehension was expanded from (see `@bufbuild/cel`'s builder). */
function macroOf(c: CelComprehension): { macro: MacroName; test?: CelExpr; step?: CelExpr } | undefined {
  const init = c.accuInit?.exprKind;
  const step = c.loopStep?.exprKind;
  if (step?.case !== 'callExpr') return undefined;
  const args = step.value.args;
  if (init?.case === 'constExpr') {
    const value = init.value.constantKind;
    if (value.case === 'boolValue' && value.value === true && step.value.function === '_&&_') {
      return { macro: 'all', test: args[1] };
    }
    if (value.case === 'boolValue' && value.value === false && step.value.function === '_||_') {
      return { macro: 'exists', test: args[1] };
    }
    if (value.case === 'int64Value') return { macro: 'exists_one', test: args[0] };
    return undefined;
  }
  if (init?.case !== 'listExpr') return undefined;
  if (step.value.function === '_+_') return { macro: 'map', step: listItem(args[1]) };
  const added = listItem(args[1]?.exprKind.case === 'callExpr' ? args[1].exprKind.value.args[1] : undefined);
  const itemIsVar = added?.exprKind.case === 'identExpr' && added.exprKind.value.name === c.iterVar;
  return itemIsVar ? { macro: 'filter', test: args[0] } : { macro: 'map', test: args[0], step: added };
}

function listItem(expr: CelExpr | undefined): CelExpr | undefined {
  return expr?.exprKind.case === 'listExpr' ? expr.exprKind.value.elements[0] : undefined;
}

function macro(ctx: CheckContext, c: CelComprehension, scope: Scope, offset: number): TypedNode | undefined {
  const found = macroOf(c);
  if (!found) return unsupported(ctx, offset, 'This comprehension is outside what eventry compiles.');
  const range = ctx.visit(c.iterRange, scope);
  if (!range) return undefined;
  if (range.type.kind !== 'list') {
    return range.type.kind === 'map'
      ? unsupported(ctx, offset, `\`${found.macro}\` over a free object is outside what eventry compiles.`)
      : mismatch(ctx, offset, `\`${found.macro}\` needs a list, not ${aType(range.type)}.`);
  }
  if (scope.vars.has(c.iterVar)) {
    return unsupported(ctx, offset, `The variable \`${c.iterVar}\` is already in use.`, 'Pick another name.');
  }
  const inner: Scope = { vars: new Map([...scope.vars, [c.iterVar, range.type.of]]), present: scope.present };
  const test = found.test ? ctx.visit(found.test, inner) : undefined;
  if (found.test && !test) return undefined;
  if (test && test.type.kind !== 'bool') {
    return mismatch(
      ctx,
      test.offset,
      `The condition of \`${found.macro}\` must be a bool, not ${aType(test.type)}.`,
    );
  }
  const step = found.step ? ctx.visit(found.step, test ? withGuards(inner, test) : inner) : undefined;
  if (found.step && !step) return undefined;
  const type: CelType =
    found.macro === 'map'
      ? { kind: 'list', of: step!.type }
      : found.macro === 'filter'
        ? range.type
        : { kind: 'bool' };
  const mayError = range.mayError || !!test?.mayError || !!step?.mayError;
  return {
    op: 'macro',
    macro: found.macro,
    range,
    variable: c.iterVar,
    ...(test ? { test } : {}),
    ...(step ? { step } : {}),
    type,
    offset,
    mayError,
  };
}
