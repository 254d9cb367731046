import type { DifferenceType } from './difference-types.js';
import { type SchemaNode, sameClass } from './schema-node.js';

/**
 * Confluent's JSON Schema diff (`json/diff/SchemaDiff.java` and the per-type `*SchemaDiff.java`),
 * over nodes loaded by `loadSchemaNode`: the differences from `original` (the writer) to `update`
 * (the reader), each with the JSON path Confluent reports. Which subschemas count as compatible
 * while walking (unions, partially open models) depends on the policy's compatible set, as in Confluent.
 */

/** One difference: Confluent's type and path (`#/properties/name`). */
export interface Difference {
  type: DifferenceType;
  path: string;
}

/** Confluent's checker has a bug here (a NullPointerException): the registry answers with an error. */
export class ConfluentCheckerFailure extends Error {}

/** Memo and cycle state shared by every context of one comparison (Context.java). */
class Shared {
  memo = new Map<SchemaNode, Map<SchemaNode, Difference[]>>();
  inProgress = new Set<string>();
  ids = new Map<SchemaNode, number>();
  optimismUsed = false;
  constructor(
    readonly compatible: ReadonlySet<DifferenceType>,
    readonly seed: Map<SchemaNode, Map<SchemaNode, Difference[]>>,
  ) {}
  key(a: SchemaNode, b: SchemaNode): string {
    for (const node of [a, b]) if (!this.ids.has(node)) this.ids.set(node, this.ids.size);
    return `${this.ids.get(a)}:${this.ids.get(b)}`;
  }
}

class Context {
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

/**
 * `SchemaDiff.compare(compatibleChanges, original, update)`: iterated to a fixpoint when a recursive
 * cycle was optimistically assumed compatible, as Confluent does.
 */
export function compareSchemas(
  compatible: ReadonlySet<DifferenceType>,
  original: SchemaNode,
  update: SchemaNode,
): Difference[] {
  let seed = new Map<SchemaNode, Map<SchemaNode, Difference[]>>();
  for (;;) {
    const shared = new Shared(compatible, seed);
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

/** Added, removed, increased, decreased: how StringSchemaDiff and friends compare one limit. */
function compareLimit(
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

function structureKey(node: SchemaNode): string {
  return JSON.stringify(node, (key, value: unknown) => {
    if (key === 'resolve') return undefined;
    if (value instanceof Map) return [...value.entries()];
    return value;
  });
}

function isOpenObject(node: SchemaNode): boolean {
  if (node.permitsAdditional === false || node.additional) return false;
  if (node.patternProperties && node.patternProperties.size > 0) return false;
  return !node.unevaluated || node.unevaluated.kind === 'empty' || node.unevaluated.kind === 'true';
}

function partialObjectSchema(node: SchemaNode, property: string): SchemaNode | undefined {
  for (const [pattern, schema] of node.patternProperties ?? []) {
    try {
      if (new RegExp(pattern, 'u').test(property)) return schema;
    } catch {
      if (new RegExp(pattern).test(property)) return schema;
    }
  }
  if (node.additional) return node.additional;
  if (node.permitsAdditional !== false) {
    const u = node.unevaluated;
    if (u && u.kind !== 'false' && u.kind !== 'empty' && u.kind !== 'true') return u;
  }
  return undefined;
}

function compareObject(ctx: Context, original: SchemaNode, update: SchemaNode) {
  const oProps = original.properties ?? new Map<string, SchemaNode>();
  const uProps = update.properties ?? new Map<string, SchemaNode>();
  const oRequired = new Set(original.required);
  const uRequired = new Set(update.required);
  ctx.within('required', () => {
    for (const name of oProps.keys()) {
      if (!uProps.has(name)) continue;
      if (oRequired.has(name) && !uRequired.has(name)) ctx.add('REQUIRED_ATTRIBUTE_REMOVED', name);
      else if (!oRequired.has(name) && uRequired.has(name))
        ctx.add(
          uProps.get(name)!.default !== undefined
            ? 'REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED'
            : 'REQUIRED_ATTRIBUTE_ADDED',
          name,
        );
    }
  });
  ctx.within('properties', () => {
    for (const name of new Set([...oProps.keys(), ...uProps.keys()])) {
      ctx.within(name, () =>
        compareProperty(ctx, original, update, name, oProps.get(name), uProps.get(name)),
      );
    }
  });
  ctx.within('dependencies', () => compareDependencies(ctx, original, update));
  ctx.within('additionalProperties', () => {
    const [op, up] = [original.permitsAdditional !== false, update.permitsAdditional !== false];
    if (op !== up) ctx.add(up ? 'ADDITIONAL_PROPERTIES_ADDED' : 'ADDITIONAL_PROPERTIES_REMOVED');
    else if (!original.additional && update.additional) ctx.add('ADDITIONAL_PROPERTIES_NARROWED');
    else if (!update.additional && original.additional) ctx.add('ADDITIONAL_PROPERTIES_EXTENDED');
    else compare(ctx, original.additional, update.additional);
  });
  compareUnevaluated(
    ctx,
    'unevaluatedProperties',
    original.unevaluated,
    update.unevaluated,
    'UNEVALUATED_PROPERTIES',
  );
  compareLimit(ctx, 'maxProperties', original.maxProperties, update.maxProperties, 'MAX_PROPERTIES');
  compareLimit(ctx, 'minProperties', original.minProperties, update.minProperties, 'MIN_PROPERTIES');
}

function compareProperty(
  ctx: Context,
  original: SchemaNode,
  update: SchemaNode,
  name: string,
  oSchema: SchemaNode | undefined,
  uSchema: SchemaNode | undefined,
) {
  if (uSchema === undefined) {
    if (isOpenObject(update)) return ctx.add('PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL');
    const partial = partialObjectSchema(update, name);
    if (partial) {
      const sub = ctx.sub();
      compare(sub, oSchema, partial);
      ctx.addAll(sub.diffs);
      return ctx.add(
        sub.isCompatible()
          ? 'PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL'
          : 'PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
      );
    }
    return ctx.add(
      oSchema!.kind === 'false'
        ? 'PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL'
        : 'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL',
    );
  }
  if (oSchema === undefined) {
    const required = (update.required ?? []).includes(name);
    const withDefault = uSchema.default !== undefined;
    if (isOpenObject(original)) {
      if (uSchema.kind === 'empty' || uSchema.kind === 'true')
        return ctx.add('PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL');
      if (required)
        return ctx.add(
          withDefault
            ? 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL'
            : 'REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL',
        );
      return ctx.add('OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL');
    }
    const partial = partialObjectSchema(original, name);
    if (partial) {
      const sub = ctx.sub();
      compare(sub, partial, uSchema);
      ctx.addAll(sub.diffs);
      ctx.add(
        sub.isCompatible()
          ? 'PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL'
          : 'PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
      );
    }
    if (required)
      return ctx.add(
        withDefault
          ? 'REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL'
          : 'REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL',
      );
    return ctx.add('OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL');
  }
  compare(ctx, oSchema, uSchema);
}

function compareDependencies(ctx: Context, original: SchemaNode, update: SchemaNode) {
  const [oDeps, uDeps] = [
    original.propertyDependencies ?? new Map(),
    update.propertyDependencies ?? new Map(),
  ];
  for (const name of new Set<string>([...oDeps.keys(), ...uDeps.keys()])) {
    ctx.within(name, () => {
      const [o, u] = [oDeps.get(name), uDeps.get(name)] as (string[] | undefined)[];
      if (u === undefined) return ctx.add('DEPENDENCY_ARRAY_REMOVED');
      if (o === undefined) return ctx.add('DEPENDENCY_ARRAY_ADDED');
      const [os, us] = [new Set(o), new Set(u)];
      const contains = (a: Set<string>, b: Set<string>) => [...b].every((value) => a.has(value));
      if (contains(os, us) && contains(us, os)) return;
      if (contains(us, os)) ctx.add('DEPENDENCY_ARRAY_EXTENDED');
      else if (contains(os, us)) ctx.add('DEPENDENCY_ARRAY_NARROWED');
      else ctx.add('DEPENDENCY_ARRAY_CHANGED');
    });
  }
  const [oSchemas, uSchemas] = [
    original.schemaDependencies ?? new Map(),
    update.schemaDependencies ?? new Map(),
  ];
  for (const name of new Set<string>([...oSchemas.keys(), ...uSchemas.keys()])) {
    ctx.within(name, () => {
      const [o, u] = [oSchemas.get(name), uSchemas.get(name)] as (SchemaNode | undefined)[];
      if (u === undefined) return ctx.add('DEPENDENCY_SCHEMA_REMOVED');
      if (o === undefined) return ctx.add('DEPENDENCY_SCHEMA_ADDED');
      compare(ctx, o, u);
    });
  }
}

/** unevaluatedProperties / unevaluatedItems (ObjectSchemaDiff, ArraySchemaDiff). */
function compareUnevaluated(
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
    else compare(ctx, o, u);
  });
}

function isOpenArray(node: SchemaNode): boolean {
  if (node.permitsAdditionalItems === false || node.additionalItems) return false;
  const u = node.unevaluatedItems;
  return !u || u.kind === 'empty' || u.kind === 'true';
}

function partialArraySchema(node: SchemaNode): SchemaNode | undefined {
  if (node.additionalItems) return node.additionalItems;
  if (node.permitsAdditionalItems !== false) {
    const u = node.unevaluatedItems;
    if (u && u.kind !== 'false' && u.kind !== 'empty' && u.kind !== 'true') return u;
  }
  return undefined;
}

function compareArray(ctx: Context, original: SchemaNode, update: SchemaNode) {
  ctx.within('items', () => compare(ctx, original.allItems, update.allItems));
  compareTuple(ctx, original, update);
  ctx.within('additionalItems', () => {
    const [op, up] = [original.permitsAdditionalItems !== false, update.permitsAdditionalItems !== false];
    if (op !== up) ctx.add(op ? 'ADDITIONAL_ITEMS_REMOVED' : 'ADDITIONAL_ITEMS_ADDED');
    else if (!original.additionalItems && update.additionalItems) ctx.add('ADDITIONAL_ITEMS_NARROWED');
    else if (!update.additionalItems && original.additionalItems) ctx.add('ADDITIONAL_ITEMS_EXTENDED');
    else compare(ctx, original.additionalItems, update.additionalItems);
  });
  compareUnevaluated(
    ctx,
    'unevaluatedItems',
    original.unevaluatedItems,
    update.unevaluatedItems,
    'UNEVALUATED_ITEMS',
  );
  compareLimit(ctx, 'maxItems', original.maxItems, update.maxItems, 'MAX_ITEMS');
  compareLimit(ctx, 'minItems', original.minItems, update.minItems, 'MIN_ITEMS');
  if (Boolean(original.uniqueItems) !== Boolean(update.uniqueItems))
    ctx.add(original.uniqueItems ? 'UNIQUE_ITEMS_REMOVED' : 'UNIQUE_ITEMS_ADDED', 'uniqueItems');
  compareLimit(ctx, 'maxContains', original.maxContains, update.maxContains, 'MAX_CONTAINS');
  compareLimit(ctx, 'minContains', original.minContains, update.minContains, 'MIN_CONTAINS');
}

function compareTuple(ctx: Context, original: SchemaNode, update: SchemaNode) {
  const [os, us] = [original.itemSchemas ?? [], update.itemSchemas ?? []];
  const shared = Math.min(os.length, us.length);
  for (let index = 0; index < shared; index++)
    ctx.within(`items/${index}`, () => compare(ctx, os[index], us[index]));
  for (let index = shared; index < os.length; index++) {
    ctx.within(`items/${index}`, () => {
      if (isOpenArray(update)) return ctx.add('ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL');
      const partial = partialArraySchema(update);
      if (partial) {
        const sub = ctx.sub();
        compare(sub, os[index], partial);
        ctx.addAll(sub.diffs);
        return ctx.add(
          sub.isCompatible()
            ? 'ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL'
            : 'ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
        );
      }
      ctx.add(
        os[index]!.kind === 'false'
          ? 'ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL'
          : 'ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL',
      );
    });
  }
  for (let index = shared; index < us.length; index++) {
    ctx.within(`items/${index}`, () => {
      const item = us[index]!;
      if (isOpenArray(original))
        return ctx.add(
          item.kind === 'empty' || item.kind === 'true'
            ? 'ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL'
            : 'ITEM_ADDED_TO_OPEN_CONTENT_MODEL',
        );
      const partial = partialArraySchema(original);
      if (!partial) return ctx.add('ITEM_ADDED_TO_CLOSED_CONTENT_MODEL');
      const sub = ctx.sub();
      compare(sub, partial, item);
      ctx.addAll(sub.diffs);
      ctx.add(
        sub.isCompatible()
          ? 'ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL'
          : 'ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
      );
    });
  }
}
