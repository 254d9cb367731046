import type { CelExpr } from './parse.js';
import type { CelType, RuleProblem, RuleScope, TypedNode } from './types.js';

/** The variables in scope and the fields known present (`has()` guards), by path (`message.a.b`). */
export interface Scope {
  vars: ReadonlyMap<string, CelType>;
  present: ReadonlySet<string>;
}

/** Where the checker reports to and what it reads: shared by the visitor and the call checks. */
export interface CheckContext {
  problems: RuleProblem[];
  rule: RuleScope;
  offsetOf(node: CelExpr): number;
  visit(expr: CelExpr | undefined, scope: Scope): TypedNode | undefined;
}

/** Records a `rule-unsupported` problem; returns nothing, so the caller stops there. */
export function unsupported(ctx: CheckContext, offset: number, message: string, hint?: string): undefined {
  ctx.problems.push({ code: 'rule-unsupported', offset, message, ...(hint ? { hint } : {}) });
  return undefined;
}

/** Records a `rule-type-mismatch` problem. */
export function mismatch(ctx: CheckContext, offset: number, message: string, hint?: string): undefined {
  ctx.problems.push({ code: 'rule-type-mismatch', offset, message, ...(hint ? { hint } : {}) });
  return undefined;
}

/** The path a `has()` guard names (`message.a.b`), or undefined for any other expression. */
export function pathOf(node: TypedNode): string | undefined {
  if (node.op === 'ident') return node.name;
  if (node.op !== 'select') return undefined;
  const target = pathOf(node.target);
  return target === undefined ? undefined : `${target}.${node.field}`;
}

/** The scope with the fields `node` being true proves present. */
export function withGuards(scope: Scope, node: TypedNode, when = true): Scope {
  const facts = guardsOf(node, when);
  if (facts.length === 0) return scope;
  return { vars: scope.vars, present: new Set([...scope.present, ...facts]) };
}

/** The paths `has()` proves present when `node` evaluates to `when`. */
function guardsOf(node: TypedNode, when: boolean): string[] {
  if (node.op === 'has') {
    const path = pathOf(node.target);
    return when && path !== undefined ? [`${path}.${node.field}`] : [];
  }
  if (node.op !== 'call') return [];
  if (node.fn === '!_') return guardsOf(node.args[0]!, !when);
  if (node.fn === '_&&_' && when) return [...guardsOf(node.args[0]!, true), ...guardsOf(node.args[1]!, true)];
  if (node.fn === '_||_' && !when)
    return [...guardsOf(node.args[0]!, false), ...guardsOf(node.args[1]!, false)];
  return [];
}
