import type { DifferenceType } from './difference-types.js';
import type { SchemaNode } from './schema-node.js';

/** How a comparison recurses: SchemaDiff.compare, given to the per-type diffs through the context. */
export type Compare = (
  ctx: Context,
  original: SchemaNode | undefined,
  update: SchemaNode | undefined,
) => void;

/** One difference: Confluent's type and path (`#/properties/name`). */
export interface Difference {
  type: DifferenceType;
  path: string;
}

/** Confluent's checker has a bug here (a NullPointerException): the registry answers with an error. */
export class ConfluentCheckerFailure extends Error {}

/** The comparison took more steps than its budget allows (a client's schema too large to judge). */
export class ComparisonTooLarge extends Error {}

/** How many comparison steps one judgement may take, over every round of the fixpoint. */
export class Budget {
  used = 0;
  constructor(readonly limit: number) {}
  spend(): void {
    if (++this.used > this.limit)
      throw new ComparisonTooLarge(`comparing it takes more than ${this.limit} steps.`);
  }
}

/** Memo and cycle state shared by every context of one comparison (Context.java). */
export class Shared {
  memo = new Map<SchemaNode, Map<SchemaNode, Difference[]>>();
  inProgress = new Set<string>();
  ids = new Map<SchemaNode, number>();
  optimismUsed = false;
  constructor(
    readonly compare: Compare,
    readonly compatible: ReadonlySet<DifferenceType>,
    readonly seed: Map<SchemaNode, Map<SchemaNode, Difference[]>>,
    readonly budget: Budget = new Budget(Number.POSITIVE_INFINITY),
  ) {}
  key(a: SchemaNode, b: SchemaNode): string {
    for (const node of [a, b]) if (!this.ids.has(node)) this.ids.set(node, this.ids.size);
    return `${this.ids.get(a)}:${this.ids.get(b)}`;
  }
}

/** Context.java: the path, the differences found, and the shared memo. */
export class Context {
  readonly diffs: Difference[] = [];
  constructor(
    readonly shared: Shared,
    readonly path: string[] = [],
  ) {}
  sub(): Context {
    return new Context(this.shared, [...this.path]);
  }
  isCompatible(): boolean {
    return this.diffs.every((diff) => this.shared.compatible.has(diff.type));
  }
  add(type: DifferenceType, attribute?: string) {
    const path = attribute === undefined ? this.path : [...this.path, attribute];
    this.diffs.push({ type, path: `#/${path.join('/')}` });
  }
  addAll(diffs: readonly Difference[]) {
    this.diffs.push(...diffs);
  }
  within<T>(segment: string, run: () => T): T {
    this.path.push(segment);
    try {
      return run();
    } finally {
      this.path.pop();
    }
  }
  addRebased(diffs: readonly Difference[]) {
    if (this.path.length === 0) return this.addAll(diffs);
    const prefix = `#/${this.path.join('/')}`;
    for (const diff of diffs)
      this.diffs.push({
        type: diff.type,
        path: diff.path.length <= 2 ? prefix : `${prefix}/${diff.path.slice(2)}`,
      });
  }
}

/** Added, removed, increased, decreased: how StringSchemaDiff and friends compare one limit. */
export function compareLimit(
  ctx: Context,
  name: string,
  original: number | undefined,
  update: number | undefined,
  prefix: string,
) {
  if (original === update) return;
  if (original === undefined) ctx.add(`${prefix}_ADDED` as DifferenceType, name);
  else if (update === undefined) ctx.add(`${prefix}_REMOVED` as DifferenceType, name);
  else if (original < update) ctx.add(`${prefix}_INCREASED` as DifferenceType, name);
  else if (original > update) ctx.add(`${prefix}_DECREASED` as DifferenceType, name);
}

/** unevaluatedProperties / unevaluatedItems (ObjectSchemaDiff, ArraySchemaDiff). */
export function compareUnevaluated(
  ctx: Context,
  name: string,
  o: SchemaNode | undefined,
  u: SchemaNode | undefined,
  prefix: 'UNEVALUATED_PROPERTIES' | 'UNEVALUATED_ITEMS',
) {
  if (o === undefined && u === undefined) return;
  const isFalse = (node: SchemaNode) => node.kind === 'false';
  const isEmpty = (node: SchemaNode) => node.kind === 'empty' || node.kind === 'true';
  const type = (suffix: string) => `${prefix}_${suffix}` as DifferenceType;
  ctx.within(name, () => {
    if (o === undefined) ctx.add(type(isFalse(u!) ? 'REMOVED' : 'NARROWED'));
    else if (u === undefined) ctx.add(type(isFalse(o) ? 'ADDED' : 'EXTENDED'));
    else if (isFalse(o) && !isFalse(u)) ctx.add(type('ADDED'));
    else if (!isFalse(o) && isFalse(u)) ctx.add(type('REMOVED'));
    else if (isEmpty(o) && !isEmpty(u)) ctx.add(type('NARROWED'));
    else if (!isEmpty(o) && isEmpty(u)) ctx.add(type('EXTENDED'));
    else ctx.shared.compare(ctx, o, u);
  });
}
