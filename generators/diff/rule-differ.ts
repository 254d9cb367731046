import { checkRule } from '../cel/check.js';
import { rulesOverMessage } from '../cel/over-message.js';
import { fieldsRead } from '../cel/reads.js';
import type { Catalogue, EventVersion } from '../model.js';
import type { DataRule, RelChange } from './model-change.js';

/**
 * Every data rule a payload of the event must keep, as the payload meets it: the event's own, then each
 * shape's at each place the shape sits, over `message` and named as the registry serves them
 * (`rulesOverMessage`), each with the field its error names from the payload.
 */
export function payloadRules(event: EventVersion, catalogue: Catalogue): DataRule[] {
  const served = rulesOverMessage(event, catalogue.shapes);
  const sources = [
    ...(event.rules ?? []).map((rule) => ({ rule, prefix: [] as string[], shape: undefined })),
    ...(event.shapeRules ?? []).flatMap((place) =>
      (catalogue.shapes[place.shape]?.rules ?? []).map((rule) => ({
        rule,
        prefix: place.path,
        shape: place.shape,
      })),
    ),
  ];
  const scope = {
    variable: 'message' as const,
    name: event.key,
    fields: event.fields,
    shapeFields: (name: string) => catalogue.shapes[name]?.fields,
  };
  // `rulesOverMessage` lists the same rules in the same order: own rules, then place by place.
  return served.map((rule, i) => {
    const source = sources[i];
    const attr = source ? attrPath([...source.prefix, source.rule.attr]) : '';
    const checked = checkRule(rule.expr, scope);
    // A rule the loader refused never reaches a diff; were it to, it reads the field it names.
    const reads = checked.ok ? fieldsRead(checked.node) : attr ? [attr] : [];
    const placed: DataRule = { name: rule.name, expr: rule.expr, message: rule.doc, attr, reads };
    if (!source?.shape) return placed;
    const { name, expr, message } = source.rule;
    return {
      ...placed,
      shape: { name: source.shape, written: { name, expr, message, attr: source.rule.attr } },
    };
  });
}

/** `lines[].price.amount` from `['lines', '[]', 'price.amount']`, as the diff writes field paths. */
function attrPath(segments: readonly string[]): string {
  return segments
    .filter(Boolean)
    .reduce((path, segment) => (segment === '[]' ? `${path}[]` : path ? `${path}.${segment}` : segment), '');
}

/**
 * The data rules of one event version compared: matched by name, and a rule gone beside a new one with
 * the very same expression is one renamed rule (what payloads must keep did not change).
 */
export function diffRules(old: DataRule[], now: DataRule[]): RelChange[] {
  const changes: RelChange[] = [];
  const byName = new Map(now.map((rule) => [rule.name, rule]));
  const gone = old.filter((rule) => !byName.has(rule.name));
  const oldNames = new Set(old.map((rule) => rule.name));
  const added = now.filter((rule) => !oldNames.has(rule.name));
  for (const before of old) {
    const after = byName.get(before.name);
    if (after && !sameRule(before, after)) changes.push(change(before, after));
  }
  for (const before of gone) {
    const at = added.findIndex((rule) => rule.expr === before.expr);
    const after = at < 0 ? undefined : added.splice(at, 1)[0];
    changes.push(change(before, after));
  }
  for (const after of added) changes.push(change(undefined, after));
  return changes;
}

function sameRule(a: DataRule, b: DataRule): boolean {
  return a.name === b.name && a.expr === b.expr && a.message === b.message && a.attr === b.attr;
}

/**
 * The change, at the field the rule names (null, the event, for a rule over the whole payload); via
 * its shape when it is one shape's rule on every side it is on, so reports can say it once; with the
 * fields the rule reads on either side (whom the change concerns).
 */
function change(before: DataRule | undefined, after: DataRule | undefined): RelChange {
  const rule = (after ?? before)!;
  const shape = rule.shape;
  const oneShape = shape && [before, after].every((side) => !side || side.shape?.name === shape.name);
  const reads = [...new Set([...(before?.reads ?? []), ...(after?.reads ?? [])])].sort();
  return {
    kind: 'rule-changed',
    attr: rule.attr || null,
    reads,
    ...(oneShape ? { via: { shape: shape.name, attr: shape.written.attr || null } } : {}),
    ...(before ? { before } : {}),
    ...(after ? { after } : {}),
  };
}
