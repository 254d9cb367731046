import { checkRule } from '../cel/check.js';
import type { RuleProblem, RuleScope } from '../cel/types.js';
import type { Field, FieldType, Rule, ShapeRulePlace } from '../model.js';
import type { Definition, Path, ResolveContext, ShapeDefinition } from './definition.js';
import type { CatalogueProblem } from './problem.js';
import { suggest } from './suggest.js';
import { toPointer } from './yaml-source.js';

/** Reads the fields of a definition (the resolver's memoised `fieldsOf`). */
type FieldsOf = (def: Definition) => Field[];

/**
 * `{ rules }` of an event or shape definition, each expression type-checked against its fields (over
 * `message` for an event, `this` for a shape); its problems are added to `ctx`, located in the
 * expression. Entries the shape check refuses (not a mapping, a missing `expr`) are left to it.
 */
export function readRules(
  ctx: ResolveContext,
  def: Definition,
  fields: Field[],
  fieldsOf: FieldsOf,
): { rules?: Rule[] } {
  const raw = def.raw.rules;
  if (!Array.isArray(raw) || raw.length === 0) return {};
  const scope: RuleScope = {
    variable: def.kind === 'event' ? 'message' : 'this',
    name: def.name,
    fields,
    shapeFields: (name) => {
      const shape = ctx.shapeDefs.get(name);
      return shape ? fieldsOf(shape) : undefined;
    },
  };
  const rules: Rule[] = [];
  const names = new Set<string>();
  raw.forEach((entry: unknown, index) => {
    const rule = readRule(def, [...def.path, 'rules', index], entry);
    if (!rule) return;
    if (names.has(rule.name)) {
      ctx.problems.push(
        def.source.problem(
          'duplicate-rule',
          [...def.path, 'rules', index, 'name'],
          `${def.kind === 'event' ? 'Event' : 'Shape'} \`${def.name}\` has two rules named \`${rule.name}\`.`,
          'Give each rule of an event or shape its own name.',
        ),
      );
    }
    names.add(rule.name);
    checkAttr(ctx, def, [...def.path, 'rules', index, 'attr'], rule, scope);
    const checked = checkRule(rule.expr, scope);
    if (!checked.ok) {
      const at = [...def.path, 'rules', index, 'expr'];
      for (const problem of checked.problems) ctx.problems.push(ruleProblem(def, at, rule, problem));
    }
    rules.push(rule);
  });
  return rules.length > 0 ? { rules } : {};
}

/**
 * Refuses an `attr` that names no field (a dot path from the event or shape: field names, and array
 * indexes where a field is an array), so a broken rule never points at a place the payload cannot have.
 */
function checkAttr(ctx: ResolveContext, def: Definition, path: Path, rule: Rule, scope: RuleScope): void {
  const attr = rule.attr;
  if (attr === '') return;
  let fields: readonly Field[] | undefined = scope.fields;
  let type: FieldType | undefined;
  for (const segment of attr.split('.')) {
    let next: FieldType;
    if (type?.kind === 'array' && /^(0|[1-9][0-9]*)$/.test(segment)) {
      next = type.items;
    } else {
      const field: Field | undefined = fields?.find((candidate) => candidate.name === segment);
      if (!field) {
        const guess = suggest(
          segment,
          (fields ?? []).map((candidate) => candidate.name),
        );
        const where = def.kind === 'event' ? 'the event' : `shape \`${def.name}\``;
        ctx.problems.push(
          def.source.problem(
            'rule-unknown-field',
            path,
            `Rule \`${rule.name}\`: \`attr\` names \`${attr}\`, which is not a field of ${where} (at \`${segment}\`).`,
            guess !== undefined
              ? `Did you mean \`${guess}\`?`
              : 'Name a field (a dot path; array items by index), or leave `attr` out for the payload.',
          ),
        );
        return;
      }
      next = field.type;
    }
    type = next;
    fields = next.kind === 'shape' ? scope.shapeFields(next.name) : undefined;
  }
}

function readRule(def: Definition, path: Path, entry: unknown): Rule | undefined {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  const { name, expr, message, attr } = entry as Record<string, unknown>;
  if (typeof name !== 'string' || typeof expr !== 'string' || typeof message !== 'string') return undefined;
  return {
    name,
    expr,
    message,
    attr: typeof attr === 'string' ? attr : '',
    source: def.source.at([...path, 'expr']),
  };
}

/** What to do about a rule problem whose check gave no hint of its own. */
const DEFAULT_HINTS: Record<RuleProblem['code'], string> = {
  'rule-syntax-error': 'Write CEL: fields as `message.a.b`, text in quotes, `&&` or `||` between conditions.',
  'rule-unknown-field': 'Read a field the event lists (a rule of a shape reads `this`).',
  'rule-type-mismatch': 'Combine values of one type; every JSON number is a double to CEL (write `1.0`).',
  'rule-unguarded-field': 'Guard the optional field with `has()` first.',
  'rule-unsupported': 'See "Rules" in catalogue/README.md for what eventry compiles.',
  'rule-too-deep':
    'Write a choice among values as `in [...]`; split a long `&&` condition into rules of their own.',
};

/** What to do about a CEL problem: a did-you-mean for an unknown name, else the check's hint or the default. */
export function celProblemHint(problem: RuleProblem): string | undefined {
  const guess = problem.unknown ? suggest(problem.unknown, problem.candidates ?? []) : undefined;
  return guess !== undefined ? `Did you mean \`${guess}\`?` : (problem.hint ?? DEFAULT_HINTS[problem.code]);
}

function ruleProblem(def: Definition, path: Path, rule: Rule, problem: RuleProblem): CatalogueProblem {
  const hint = celProblemHint(problem);
  return {
    code: problem.code,
    message: `Rule \`${rule.name}\`: ${problem.message}`,
    ...(hint ? { hint } : {}),
    ...def.source.within(path, rule.expr, problem.offset),
    pointer: toPointer(path),
  };
}

/**
 * Every place in an event's payload where a shape with rules sits (`ShapeRulePlace`), in field order,
 * through arrays and nested shapes. A shape inside itself is followed once: a rule of a shape that
 * recurs applies at its first places only, and that is reported.
 */
export function shapeRulePlaces(
  ctx: ResolveContext,
  def: Definition,
  fields: Field[],
  fieldsOf: FieldsOf,
): { shapeRules?: ShapeRulePlace[] } {
  const places: ShapeRulePlace[] = [];
  const walk = (list: readonly Field[], path: string[], stack: string[]): void => {
    for (const field of list) placesOf(field.type, [...path, field.name], stack);
  };
  const placesOf = (type: FieldType, path: string[], stack: string[]): void => {
    if (type.kind === 'array') {
      placesOf(type.items, [...path, '[]'], stack);
      return;
    }
    if (type.kind !== 'shape') return;
    const shape = ctx.shapeDefs.get(type.name);
    if (!shape) return;
    if (stack.includes(type.name)) {
      if (hasRules(shape)) reportRecursion(ctx, def, shape);
      return;
    }
    if (hasRules(shape)) places.push({ shape: type.name, path });
    walk(fieldsOf(shape), path, [...stack, type.name]);
  };
  walk(fields, [], def.kind === 'shape' ? [def.name] : []);
  return places.length > 0 && def.kind === 'event' ? { shapeRules: places } : {};
}

function hasRules(shape: ShapeDefinition): boolean {
  return Array.isArray(shape.raw.rules) && shape.raw.rules.length > 0;
}

function reportRecursion(ctx: ResolveContext, def: Definition, shape: ShapeDefinition): void {
  if (def.kind !== 'event') return;
  const already = ctx.problems.some(
    (problem) =>
      problem.code === 'rule-unsupported' && problem.pointer === toPointer([...shape.path, 'rules']),
  );
  if (already) return;
  ctx.problems.push(
    shape.source.problem(
      'rule-unsupported',
      [...shape.path, 'rules'],
      `Shape \`${shape.name}\` has rules and contains itself (through \`${def.name}\`): eventry cannot enforce them at every depth.`,
      'Move the rules to the events, or make the shape not recursive.',
    ),
  );
}
