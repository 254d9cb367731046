import type { RuleProblem, TypedNode } from './types.js';

/**
 * How deep an expression may nest, in levels of expressions as parsed, and how many terms one `&&` or
 * `||` chain may have. The check, the compiler and the test data walk a tree by recursion, so a deeper
 * one would end the build in a stack overflow; no rule written by hand comes near.
 */
export const MAX_RULE_DEPTH = 100;

/** The problem of an expression nested deeper than `MAX_RULE_DEPTH`, at the node that goes past it. */
export function tooDeep(offset: number, message?: string): RuleProblem {
  return {
    code: 'rule-too-deep',
    offset,
    message: message ?? `The expression nests deeper than the ${MAX_RULE_DEPTH} levels eventry compiles.`,
  };
}

/** The problem of an `&&` or `||` chain of more terms than `MAX_RULE_DEPTH`. */
export function chainTooLong(offset: number, terms: number, op: string): RuleProblem {
  return tooDeep(
    offset,
    `The expression chains ${terms} terms with \`${op}\`; eventry compiles at most ${MAX_RULE_DEPTH} levels, and each term of a chain is one.`,
  );
}

/**
 * The first node of a parsed expression (the parser's `Expr`, a node with an `exprKind`) below
 * `MAX_RULE_DEPTH` levels of expressions, or undefined. A walk with its own stack, so that any depth
 * the parser returned is measured without recursion.
 */
export function parsedPastLimit<Expr extends object>(root: Expr): Expr | undefined {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, level] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    const isExpr = 'exprKind' in value;
    const depth = isExpr ? level + 1 : level;
    if (depth > MAX_RULE_DEPTH) return value as Expr;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth]);
  }
  return undefined;
}

/**
 * How deep a checked tree may be: an `&&` or `||` chain is folded into a level per term, so a tree is
 * deeper than its expression; twice the expression's limit leaves room for the longest chain allowed.
 */
const MAX_TYPED_DEPTH = 2 * MAX_RULE_DEPTH;

/** The problem of a checked tree deeper than `MAX_TYPED_DEPTH`: chains nested in chains. */
export function typedTooDeep(offset: number): RuleProblem {
  return tooDeep(
    offset,
    `The expression nests deeper than eventry compiles: ${MAX_TYPED_DEPTH} levels, where each term of an \`&&\` or \`||\` chain is one.`,
  );
}

/** The first node of a checked tree below `MAX_TYPED_DEPTH` levels, or undefined; without recursion. */
export function typedPastLimit(root: TypedNode): TypedNode | undefined {
  const stack: [TypedNode, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > MAX_TYPED_DEPTH) return node;
    for (const child of childrenOf(node)) stack.push([child, depth + 1]);
  }
  return undefined;
}

function childrenOf(node: TypedNode): TypedNode[] {
  switch (node.op) {
    case 'select':
    case 'has':
      return [node.target];
    case 'call':
      return node.args;
    case 'list':
      return node.items;
    case 'macro':
      return [node.range, ...(node.test ? [node.test] : []), ...(node.step ? [node.step] : [])];
    default:
      return [];
  }
}
