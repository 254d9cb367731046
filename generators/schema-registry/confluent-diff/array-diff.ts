import { type Context, compareLimit, compareUnevaluated } from './context.js';
import type { SchemaNode } from './schema-node.js';

/** ArraySchemaDiff.java: items, tuples (by content model), additionalItems, limits. */
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

export function compareArray(ctx: Context, original: SchemaNode, update: SchemaNode) {
  ctx.within('items', () => ctx.shared.compare(ctx, original.allItems, update.allItems));
  compareTuple(ctx, original, update);
  ctx.within('additionalItems', () => {
    const [op, up] = [original.permitsAdditionalItems !== false, update.permitsAdditionalItems !== false];
    if (op !== up) ctx.add(op ? 'ADDITIONAL_ITEMS_REMOVED' : 'ADDITIONAL_ITEMS_ADDED');
    else if (!original.additionalItems && update.additionalItems) ctx.add('ADDITIONAL_ITEMS_NARROWED');
    else if (!update.additionalItems && original.additionalItems) ctx.add('ADDITIONAL_ITEMS_EXTENDED');
    else ctx.shared.compare(ctx, original.additionalItems, update.additionalItems);
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
    ctx.within(`items/${index}`, () => ctx.shared.compare(ctx, os[index], us[index]));
  for (let index = shared; index < os.length; index++) {
    ctx.within(`items/${index}`, () => {
      if (isOpenArray(update)) return ctx.add('ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL');
      const partial = partialArraySchema(update);
      if (partial) {
        const sub = ctx.sub();
        sub.shared.compare(sub, os[index], partial);
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
      sub.shared.compare(sub, partial, item);
      ctx.addAll(sub.diffs);
      ctx.add(
        sub.isCompatible()
          ? 'ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL'
          : 'ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL',
      );
    });
  }
}
