import type { EventVersion, Field, FieldType, Rule, Shape, ShapeRulePlace } from '../model.js';
import { type CelExpr, parseRule } from './parse.js';

/** A rule as a schema registry serves it for one event: over `message`, with its message as `doc`. */
export interface MessageRule {
  name: string;
  expr: string;
  doc: string;
}

/**
 * Every rule an event's payload must keep, each over `message`, as the Confluent client evaluates a
 * schema's `ruleSet.domainRules`: the event's own as written, and each of its shapes' rules at each place
 * the shape sits, rewritten: `this` becomes the place (`message.buyer`), an array is walked with `all`,
 * an optional field on the way is guarded (`!has(message.a) || ...`). A shape rule is broken at the place
 * exactly when it is broken for one value there, as the validators check it (`all` gives false when an
 * item does, an error when one errs and none is false).
 */
export function rulesOverMessage(
  event: EventVersion,
  shapes: Readonly<Record<string, Shape>>,
): MessageRule[] {
  const rules: MessageRule[] = (event.rules ?? []).map((rule) => ({
    name: rule.name,
    expr: rule.expr,
    doc: rule.message,
  }));
  const taken = new Set(rules.map((rule) => rule.name));
  for (const place of event.shapeRules ?? []) {
    for (const rule of shapes[place.shape]?.rules ?? []) {
      let name = [...place.path.filter((segment) => segment !== '[]'), rule.name].join('_');
      for (let n = 2; taken.has(name); n++) name = `${name}_${n}`;
      taken.add(name);
      rules.push({ name, expr: placed(rule, place, event.fields, shapes), doc: rule.message });
    }
  }
  return rules;
}

/** A shape rule's expression at one place of the payload, over `message`. */
function placed(
  rule: Rule,
  place: ShapeRulePlace,
  fields: readonly Field[],
  shapes: Readonly<Record<string, Shape>>,
): string {
  const build = (
    value: string,
    depth: number,
    type: FieldType | undefined,
    level: readonly Field[],
  ): string => {
    if (depth === place.path.length) return `(${overValue(rule.expr, value)})`;
    const segment = place.path[depth]!;
    if (segment === '[]') {
      const items = type?.kind === 'array' ? type.items : undefined;
      const item = freeName(rule.expr, depth);
      return `${value}.all(${item}, ${build(item, depth + 1, items, fieldsOf(items, shapes))})`;
    }
    const field = level.find((candidate) => candidate.name === segment);
    const inner = build(`${value}.${segment}`, depth + 1, field?.type, fieldsOf(field?.type, shapes));
    return field?.required === false ? `(!has(${value}.${segment}) || ${inner})` : inner;
  };
  return build('message', 0, undefined, fields);
}

function fieldsOf(type: FieldType | undefined, shapes: Readonly<Record<string, Shape>>): readonly Field[] {
  return type?.kind === 'shape' ? (shapes[type.name]?.fields ?? []) : [];
}

/** A comprehension variable the rule's text does not use. */
function freeName(expr: string, depth: number): string {
  let name = `item${depth}`;
  while (new RegExp(`\\b${name}\\b`).test(expr)) name = `_${name}`;
  return name;
}

/** `expr` with each `this` (the identifier, never text inside a string) replaced by `value`. */
function overValue(expr: string, value: string): string {
  const parsed = parseRule(expr);
  if ('problem' in parsed) throw new Error(`rule does not parse: ${parsed.problem.message}`);
  const offsets: number[] = [];
  const visit = (node: CelExpr | undefined): void => {
    if (!node) return;
    const kind = node.exprKind;
    if (kind.case === 'identExpr' && kind.value.name === 'this') offsets.push(parsed.parsed.offsetOf(node));
    if (kind.case === 'selectExpr') visit(kind.value.operand);
    if (kind.case === 'callExpr') [kind.value.target, ...kind.value.args].forEach(visit);
    if (kind.case === 'listExpr') kind.value.elements.forEach(visit);
    if (kind.case === 'comprehensionExpr') [kind.value.iterRange, kind.value.loopStep].forEach(visit);
  };
  visit(parsed.parsed.expr);
  let text = expr;
  for (const offset of [...new Set(offsets)].sort((a, b) => b - a)) {
    if (text.startsWith('this', offset)) text = `${text.slice(0, offset)}${value}${text.slice(offset + 4)}`;
  }
  return text;
}
