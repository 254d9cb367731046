import { compareArray } from './array-diff.js';
import {
  Budget,
  ComparisonTooLarge,
  ConfluentCheckerFailure,
  Context,
  compareLimit,
  type Difference,
  Shared,
} from './context.js';
import type { DifferenceType } from './difference-types.js';
import { compareObject } from './object-diff.js';
import { type SchemaNode, sameClass } from './schema-node.js';

/**
 * Confluent's JSON Schema diff (`json/diff/SchemaDiff.java` and the per-type `*SchemaDiff.java`),
 * over nodes loaded by `loadSchemaNode`: the differences from `original` (the writer) to `update`
 * (the reader), each with the JSON path Confluent reports. Which subschemas count as compatible
 * while walking (unions, partially open models) depends on the policy's compatible set, as in Confluent.
 */

export { Budget, ComparisonTooLarge, ConfluentCheckerFailure, type Difference };

/**
 * `SchemaDiff.compare(compatibleChanges, original, update)`: iterated to a fixpoint when a recursive
 * cycle was optimistically assumed compatible, as Confluent does.
 */
export function compareSchemas(
  compatible: ReadonlySet<DifferenceType>,
  original: SchemaNode,
  update: SchemaNode,
  budget?: Budget,
): Difference[] {
  let seed = new Map<SchemaNode, Map<SchemaNode, Difference[]>>();
  for (;;) {
    const shared = new Shared(compare, compatible, seed, budget);
    const ctx = new Context(shared);
    compare(ctx, original, update);
    const incompatible = new Map<SchemaNode, Map<SchemaNode, Difference[]>>();
    let count = 0;
    let same = true;
    for (const [a, inner] of shared.memo) {
      for (const [b, diffs] of inner) {
        if (diffs.every((diff) => compatible.has(diff.type))) continue;
        count++;
        if (!seed.get(a)?.has(b)) same = false;
        const row = incompatible.get(a) ?? new Map<SchemaNode, Difference[]>();
        row.set(b, diffs);
        incompatible.set(a, row);
      }
    }
    const seedCount = [...seed.values()].reduce((sum, row) => sum + row.size, 0);
    if (!shared.optimismUsed || (same && count === seedCount)) return ctx.diffs;
    seed = incompatible;
  }
}

function normalize(node: SchemaNode): SchemaNode {
  if (node.kind !== 'ref') return node;
  const target = node.resolve?.();
  if (!target) throw new ConfluentCheckerFailure(`Unresolved $ref '${node.ref}'`);
  return normalize(target);
}

function compare(ctx: Context, original: SchemaNode | undefined, update: SchemaNode | undefined) {
  if (original === undefined && update === undefined) return;
  if (original === undefined) return ctx.add('SCHEMA_ADDED');
  if (update === undefined) return ctx.add('SCHEMA_REMOVED');
  ctx.shared.budget.spend();
  const o = normalize(original);
  const u = normalize(update);
  ctx.addRebased(compareMemoized(ctx, o, u));
}

function compareMemoized(ctx: Context, original: SchemaNode, update: SchemaNode): Difference[] {
  const { shared } = ctx;
  const cached = shared.memo.get(original)?.get(update);
  if (cached) return cached;
  const key = shared.key(original, update);
  if (shared.inProgress.has(key)) {
    const seeded = shared.seed.get(original)?.get(update);
    if (seeded) return seeded;
    shared.optimismUsed = true;
    return [];
  }
  shared.inProgress.add(key);
  try {
    const sub = new Context(shared);
    compareTypes(sub, original, update);
    const row = shared.memo.get(original) ?? new Map<SchemaNode, Difference[]>();
    row.set(update, [...sub.diffs]);
    shared.memo.set(original, row);
    return sub.diffs;
  } finally {
    shared.inProgress.delete(key);
  }
}

function compareTypes(ctx: Context, original: SchemaNode, update: SchemaNode) {
  if (original.kind !== 'combined' && update.kind === 'combined') {
    const subs = update.subschemas!;
    if (subs.length === 1) {
      const sub = ctx.sub();
      compare(sub, original, subs[0]);
      if (sub.isCompatible()) return ctx.addAll(sub.diffs);
    } else if (update.criterion === 'anyOf' || update.criterion === 'oneOf') {
      for (const subschema of subs) {
        const sub = ctx.sub();
        compare(sub, original, subschema);
        if (sub.isCompatible()) {
          ctx.addAll(sub.diffs);
          return ctx.add('SUM_TYPE_EXTENDED');
        }
      }
    }
  } else if (original.kind === 'combined' && update.kind !== 'combined') {
    const subs = original.subschemas!;
    if (subs.length === 1) {
      const sub = ctx.sub();
      compare(sub, subs[0], update);
      if (sub.isCompatible()) return ctx.addAll(sub.diffs);
    } else if (original.criterion === 'allOf') {
      for (const subschema of subs) {
        const sub = ctx.sub();
        compare(sub, subschema, update);
        if (sub.isCompatible()) {
          ctx.addAll(sub.diffs);
          return ctx.add('PRODUCT_TYPE_NARROWED');
        }
      }
    }
  }
  if (!sameClass(original, update)) {
    // TrueSchema extends EmptySchema in everit.
    if (original.kind === 'false' || update.kind === 'empty' || update.kind === 'true') return;
    return ctx.add('TYPE_CHANGED');
  }
  if (original.id !== update.id) ctx.add('ID_CHANGED');
  if (original.title !== update.title) ctx.add('TITLE_CHANGED');
  if (original.description !== update.description) ctx.add('DESCRIPTION_CHANGED');
  if (original.default !== update.default) ctx.add('DEFAULT_CHANGED');
  switch (original.kind) {
    case 'string':
      return compareString(ctx, original, update);
    case 'number':
      return compareNumber(ctx, original, update);
    case 'const':
      if (original.value !== update.value) ctx.add('ENUM_ARRAY_CHANGED', 'const');
      return;
    case 'enum':
      return compareEnum(ctx, original, update);
    case 'combined':
      return compareCombined(ctx, original, update);
    case 'not':
      return ctx.within('not', () => {
        const sub = ctx.sub();
        compare(sub, update.mustNotMatch, original.mustNotMatch);
        ctx.add(sub.isCompatible() ? 'NOT_TYPE_NARROWED' : 'NOT_TYPE_EXTENDED');
      });
    case 'object':
      return compareObject(ctx, original, update);
    case 'array':
      return compareArray(ctx, original, update);
    default:
      return;
  }
}

function compareString(ctx: Context, original: SchemaNode, update: SchemaNode) {
  compareLimit(ctx, 'maxLength', original.maxLength, update.maxLength, 'MAX_LENGTH');
  compareLimit(ctx, 'minLength', original.minLength, update.minLength, 'MIN_LENGTH');
  if (original.pattern === undefined && update.pattern !== undefined) ctx.add('PATTERN_ADDED', 'pattern');
  else if (original.pattern !== undefined && update.pattern === undefined)
    ctx.add('PATTERN_REMOVED', 'pattern');
  else if (original.pattern !== update.pattern) ctx.add('PATTERN_CHANGED', 'pattern');
}

function compareNumber(ctx: Context, original: SchemaNode, update: SchemaNode) {
  compareLimit(ctx, 'maximum', original.maximum, update.maximum, 'MAXIMUM');
  compareLimit(ctx, 'minimum', original.minimum, update.minimum, 'MINIMUM');
  const [oMax, uMax] = [original.exclusiveMaximum, update.exclusiveMaximum];
  if (oMax !== uMax) {
    if (oMax === undefined) ctx.add('EXCLUSIVE_MAXIMUM_ADDED', 'exclusiveMaximum');
    else if (uMax === undefined) ctx.add('EXCLUSIVE_MAXIMUM_REMOVED', 'exclusiveMaximum');
    else if (oMax < uMax) ctx.add('EXCLUSIVE_MAXIMUM_INCREASED', 'exclusiveMaximum');
    else {
      // NumberSchemaDiff compares a lowered exclusiveMaximum with the update's `maximum`.
      if (update.maximum === undefined)
        throw new ConfluentCheckerFailure(
          "Confluent's checker fails when exclusiveMaximum is lowered in a schema without maximum (NumberSchemaDiff).",
        );
      if (oMax > update.maximum) ctx.add('EXCLUSIVE_MAXIMUM_DECREASED', 'exclusiveMaximum');
    }
  }
  compareLimit(
    ctx,
    'exclusiveMinimum',
    original.exclusiveMinimum,
    update.exclusiveMinimum,
    'EXCLUSIVE_MINIMUM',
  );
  compareMultipleOf(ctx, original.multipleOf, update.multipleOf);
  if (Boolean(original.requiresInteger) !== Boolean(update.requiresInteger))
    ctx.add(original.requiresInteger ? 'TYPE_EXTENDED' : 'TYPE_NARROWED');
}

/** BigDecimal arithmetic on the decimal texts, as NumberSchemaDiff does. */
function compareMultipleOf(ctx: Context, original: number | undefined, update: number | undefined) {
  if (original === undefined && update === undefined) return;
  if (original === undefined) return ctx.add('MULTIPLE_OF_ADDED', 'multipleOf');
  if (update === undefined) return ctx.add('MULTIPLE_OF_REMOVED', 'multipleOf');
  const [a, b] = decimals(original, update);
  if (a === b) return;
  if (a !== 0n && b % a === 0n) ctx.add('MULTIPLE_OF_EXPANDED', 'multipleOf');
  else if (b !== 0n && a % b === 0n) ctx.add('MULTIPLE_OF_REDUCED', 'multipleOf');
  else ctx.add('MULTIPLE_OF_CHANGED', 'multipleOf');
}

/** Two decimals as integers of one scale. */
function decimals(x: number, y: number): [bigint, bigint] {
  const split = (n: number) => {
    const [mantissa, exponent] = n.toExponential().split('e');
    const [whole, fraction = ''] = mantissa!.split('.');
    return { digits: `${whole}${fraction}`, exp: Number(exponent) - fraction.length };
  };
  const [sx, sy] = [split(x), split(y)];
  const min = Math.min(sx.exp, sy.exp);
  const scaled = (s: { digits: string; exp: number }) => BigInt(s.digits) * 10n ** BigInt(s.exp - min);
  return [scaled(sx), scaled(sy)];
}

function compareEnum(ctx: Context, original: SchemaNode, update: SchemaNode) {
  const o = new Set(original.values);
  const u = new Set(update.values);
  if (o.size === u.size && [...o].every((value) => u.has(value))) return;
  if ([...o].every((value) => u.has(value))) ctx.add('ENUM_ARRAY_EXTENDED', 'enum');
  else if ([...u].every((value) => o.has(value))) ctx.add('ENUM_ARRAY_NARROWED', 'enum');
  else ctx.add('ENUM_ARRAY_CHANGED', 'enum');
}

function compareCombined(ctx: Context, original: SchemaNode, update: SchemaNode) {
  const [oc, uc] = [original.criterion!, update.criterion!];
  const singleton = (node: SchemaNode) => node.subschemas!.length === 1;
  if (oc !== uc) {
    const extended =
      uc === 'anyOf' ||
      (singleton(original) && singleton(update)) ||
      (singleton(original) && uc === 'oneOf') ||
      (singleton(update) && oc === 'allOf');
    ctx.add(extended ? 'COMBINED_TYPE_EXTENDED' : 'COMBINED_TYPE_CHANGED');
    if (!extended) return;
  }
  const originals = distinct(original.subschemas!);
  const updates = distinct(update.subschemas!);
  if (originals.length < updates.length)
    ctx.add(uc === 'allOf' ? 'PRODUCT_TYPE_EXTENDED' : 'SUM_TYPE_EXTENDED');
  else if (originals.length > updates.length)
    ctx.add(oc === 'anyOf' || oc === 'oneOf' ? 'SUM_TYPE_NARROWED' : 'PRODUCT_TYPE_NARROWED');
  // Compatible pairs, then a maximum matching over them (MaximumCardinalityMatch).
  const edges = originals.map((o, index) =>
    ctx.within(`${oc}/${index}`, () =>
      updates.map((u) => {
        const sub = ctx.sub();
        compare(sub, o, u);
        return sub.isCompatible() ? sub.diffs : undefined;
      }),
    ),
  );
  const matchOf = new Array<number>(updates.length).fill(-1);
  const augment = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < updates.length; j++) {
      if (!edges[i]![j] || seen[j]) continue;
      seen[j] = true;
      if (matchOf[j] === -1 || augment(matchOf[j]!, seen)) {
        matchOf[j] = i;
        return true;
      }
    }
    return false;
  };
  let size = 0;
  for (let i = 0; i < originals.length; i++) if (augment(i, [])) size++;
  matchOf.forEach((i, j) => {
    if (i >= 0) ctx.addAll(edges[i]![j]!);
  });
  if (size < Math.min(originals.length, updates.length)) ctx.add('COMBINED_TYPE_SUBSCHEMAS_CHANGED');
}

/** Subschemas without duplicates (Confluent collects them into a set of equal schemas). */
function distinct(nodes: readonly SchemaNode[]): SchemaNode[] {
  const seen = new Set<string>();
  return nodes.filter((node) => {
    const key = structureKey(node);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Each node's key, computed once: a union's subschemas are keyed each time the union is compared. */
const structureKeys = new WeakMap<SchemaNode, string>();

function structureKey(node: SchemaNode): string {
  let key = structureKeys.get(node);
  if (key === undefined) {
    key = JSON.stringify(node, (name, value: unknown) => {
      if (name === 'resolve') return undefined;
      if (value instanceof Map) return [...value.entries()];
      return value;
    });
    structureKeys.set(node, key);
  }
  return key;
}
