import { checkRule } from '../../../cel/check.js';
import { RuleCompiler } from '../../../cel/compile.js';
import type { RuleScope, TypedNode } from '../../../cel/types.js';
import type { Catalogue, Field, Rule, ShapeRulePlace } from '../../../model.js';

/**
 * An event's data rules as code for its validator: `declarations` (the helpers and patterns the rules
 * need) and the function `rules(data, options)`, which the entry point calls on a payload that passed
 * every schema check. It lists the item of each broken rule (`add`, which starts the list at the first),
 * and returns the list, or nothing when every rule is kept.
 */
export interface RuleChecks {
  /** The code to place after the validator's functions. */
  code: string;
  /** What identifies the rules: events with one schema share a validator only when this is equal too. */
  signature: string;
}

/** The name of the function `RuleChecks.code` declares, which the entry point calls (`write-code.ts`). */
const RULES_FUNCTION = 'rules';

/** The rule checks of event `key`, or undefined when it has no rules (its validator is then as before). */
export function eventRuleChecks(model: Catalogue, key: string): RuleChecks | undefined {
  const event = model.events[key];
  const own = event?.rules ?? [];
  const places = event?.shapeRules ?? [];
  if (!event || (own.length === 0 && places.length === 0)) return undefined;
  const compiler = new RuleCompiler();
  const lookup = (name: string) => model.shapes[name]?.fields;
  const lines: string[] = [];
  const scope: RuleScope = { variable: 'message', name: key, fields: event.fields, shapeFields: lookup };
  for (const rule of own) lines.push(violation(compiler, rule, scope, 'data', JSON.stringify(rule.attr)));
  for (const [n, place] of places.entries()) lines.push(...placeChecks(model, compiler, place, n, lookup));
  const body = lines.map((line) => `  ${line}`).join('\n');
  const code = [
    compiler.source().declarations,
    `function ${RULES_FUNCTION}(data, options) {\n  let run;\n${body}\n  return run;\n}`,
  ]
    .filter(Boolean)
    .join('\n');
  return { code, signature: ruleSignature(model, key)! };
}

/** What identifies an event's data rules (its own, and its shapes' where they sit); undefined without any. */
export function ruleSignature(model: Catalogue, key: string): string | undefined {
  const event = model.events[key];
  const own = event?.rules ?? [];
  const places = event?.shapeRules ?? [];
  if (own.length === 0 && places.length === 0) return undefined;
  const shapes = places.map((place) => ({
    ...place,
    rules: model.shapes[place.shape]?.rules?.map(ruleText),
  }));
  return JSON.stringify({ rules: own.map(ruleText), shapes });
}

function ruleText(rule: Rule): Omit<Rule, 'source'> {
  return { name: rule.name, expr: rule.expr, message: rule.message, attr: rule.attr };
}

/** The statement that reports `rule` when the value `root` breaks it; `attr` is a JavaScript expression. */
function violation(compiler: RuleCompiler, rule: Rule, scope: RuleScope, root: string, attr: string): string {
  const broken = compiler.broken(checked(rule, scope), root);
  const item = `{detail: ${JSON.stringify(rule.message)}, code: "rule_violated", attr: ${attr}}`;
  return `if (${broken}) run = add(run, options, ${item});`;
}

function checked(rule: Rule, scope: RuleScope): TypedNode {
  const result = checkRule(rule.expr, scope);
  // The loader refused the catalogue if this failed: reaching here would be a bug, not bad input.
  if (!result.ok)
    throw new Error(`rule ${rule.name} of ${scope.name} does not check: ${result.problems[0]?.message}`);
  return result.node;
}

/**
 * The checks of a shape's rules at one place of the payload: each field on the way read once (an
 * absent optional one skips the place), each array walked, the shape's value bound to `this`.
 */
function placeChecks(
  model: Catalogue,
  compiler: RuleCompiler,
  place: ShapeRulePlace,
  n: number,
  lookup: (name: string) => readonly Field[] | undefined,
): string[] {
  const shape = model.shapes[place.shape];
  if (!shape?.rules?.length) return [];
  const scope: RuleScope = { variable: 'this', name: shape.name, fields: shape.fields, shapeFields: lookup };
  let value = 'data';
  // The attr of the place, as parts of a JavaScript `+` expression: texts and array indexes.
  const attr: string[] = [];
  const open: string[] = [];
  place.path.forEach((segment, depth) => {
    const next = `celValue${n}_${depth}`;
    if (segment === '[]') {
      const index = `celIndex${n}_${depth}`;
      open.push(
        `for (let ${index} = 0; ${index} < ${value}.length; ${index}++) { const ${next} = ${value}[${index}];`,
      );
      attr.push(index);
    } else {
      open.push(`{ const ${next} = ${value}[${JSON.stringify(segment)}]; if (${next} !== undefined) {`);
      attr.push(JSON.stringify(segment));
    }
    value = next;
  });
  const checks = shape.rules.map((rule) => {
    const parts = rule.attr === '' ? attr : [...attr, JSON.stringify(rule.attr)];
    return violation(compiler, rule, scope, value, parts.join(' + "." + '));
  });
  const close = place.path.map((segment) => (segment === '[]' ? '}' : '}}')).join(' ');
  return [...open, ...checks.map((check) => `  ${check}`), close];
}
