import { _CodeOrName } from 'ajv/dist/compile/codegen/code.js';
import { CodeGen } from 'ajv/dist/compile/codegen/index.js';

// ajv optimises each function it generates once (`CodeGen.optimize`): it counts how often every name is
// used in the whole tree (`root.names`), then drops the declarations nothing reads and inlines the
// constants read once. Its count is a getter on every node that builds a fresh object from its
// children's, so each name is copied once per level it sits below: a fifth of the time ajv spends
// writing a 10,000-event catalogue's validators. `countNames` counts the same names into one object in
// one walk; `withOneWalkNameCount` has ajv's optimiser use it, for the compiles it wraps only.

/** Counts of names as ajv keeps them (`names[name] = uses`), one entry per name. */
type NameCounts = Record<string, number | undefined>;

/** The parts of ajv's code tree the count reads (its classes are not exported). */
interface TreeNode {
  readonly names: NameCounts;
  nodes?: TreeNode[];
  condition?: unknown;
  else?: TreeNode;
  iteration?: { readonly names: NameCounts };
  from?: unknown;
  to?: unknown;
  iterable?: { readonly names: NameCounts };
  catch?: TreeNode;
  finally?: TreeNode;
}

function add(counts: NameCounts, from: NameCounts): void {
  for (const name in from) counts[name] = (counts[name] ?? 0) + (from[name] ?? 0);
}

function addExpression(counts: NameCounts, expression: unknown): void {
  if (expression instanceof _CodeOrName) add(counts, expression.names);
}

/**
 * `root.names`, counted in one walk. Each kind of node counts what its own `names` getter counts: its
 * children, then `If` its condition and `else`, `ForLoop` its iteration, `ForRange` its bounds, `ForIter`
 * what it iterates, `Try` its `catch` and `finally`. A node of a kind it does not know (another ajv
 * version) is asked for its `names` as ajv would.
 */
export function countNames(root: TreeNode): NameCounts {
  const counts: NameCounts = {};
  const walk = (node: TreeNode): void => {
    const kind = node.constructor.name;
    if (!Array.isArray(node.nodes) || !PARENT_KINDS.has(kind)) {
      add(counts, node.names);
      return;
    }
    for (const child of node.nodes) walk(child);
    switch (kind) {
      case 'If':
        addExpression(counts, node.condition);
        if (node.else) walk(node.else);
        break;
      case 'ForLoop':
        add(counts, node.iteration!.names);
        break;
      case 'ForRange':
        addExpression(counts, node.from);
        addExpression(counts, node.to);
        break;
      case 'ForIter':
        add(counts, node.iterable!.names);
        break;
      case 'Try':
        if (node.catch) walk(node.catch);
        if (node.finally) walk(node.finally);
        break;
    }
  };
  walk(root);
  return counts;
}

/** ajv 8's node classes with children, by class name: each counts as `countNames` says. */
const PARENT_KINDS = new Set([
  'Root',
  'BlockNode',
  'Else',
  'If',
  'For',
  'ForLoop',
  'ForRange',
  'ForIter',
  'Func',
  'Return',
  'Try',
  'Catch',
  'Finally',
]);

/** ajv's own optimiser, as loaded. */
const AJV_OPTIMIZE = CodeGen.prototype.optimize;

/** What `CodeGen.optimize` reads of the generator. */
interface Optimised {
  _root: TreeNode & {
    optimizeNodes(): unknown;
    optimizeNames(names: NameCounts, constants: unknown): unknown;
  };
  _constants: unknown;
}

/**
 * Runs `compile` with ajv's optimiser counting names by `countNames` (the same passes and the same
 * result as ajv's own, which `name-count.test.ts` checks on every catalogue event), and restores it.
 */
export function withOneWalkNameCount<T>(compile: () => T): T {
  const prototype = CodeGen.prototype as unknown as { optimize(n?: number): void };
  const original = prototype.optimize;
  // Someone else replaced ajv's optimiser (a test that checks this one against it): theirs runs.
  if (original !== AJV_OPTIMIZE) return compile();
  prototype.optimize = function optimize(this: Optimised, n = 1) {
    for (let pass = n; pass > 0; pass--) {
      this._root.optimizeNodes();
      this._root.optimizeNames(countNames(this._root), this._constants);
    }
  };
  try {
    return compile();
  } finally {
    prototype.optimize = original;
  }
}
