import { type Context, compareLimit, compareUnevaluated } from './context.js';
import type { SchemaNode } from './schema-node.js';

/** ObjectSchemaDiff.java: required, properties (by content model), dependencies, additionalProperties. */
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

/** A node's `required` as a set, made once per node (a look-up per property stays constant time). */
const requiredSets = new WeakMap<SchemaNode, ReadonlySet<string>>();
function requiredOf(node: SchemaNode): ReadonlySet<string> {
  let set = requiredSets.get(node);
  if (set === undefined) {
    set = new Set(node.required);
    requiredSets.set(node, set);
  }
  return set;
}

export function compareObject(ctx: Context, original: SchemaNode, update: SchemaNode) {
  const oProps = original.properties ?? new Map<string, SchemaNode>();
  const uProps = update.properties ?? new Map<string, SchemaNode>();
  const oRequired = requiredOf(original);
  const uRequired = requiredOf(update);
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
    else ctx.shared.compare(ctx, original.additional, update.additional);
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
      sub.shared.compare(sub, oSchema, partial);
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
    const required = requiredOf(update).has(name);
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
      sub.shared.compare(sub, partial, uSchema);
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
  ctx.shared.compare(ctx, oSchema, uSchema);
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
      ctx.shared.compare(ctx, o, u);
    });
  }
}
