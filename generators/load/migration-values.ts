import { checkExpression } from '../cel/check.js';
import { aType, type CelType, type TypedNode } from '../cel/types.js';
import { jsonataSupport } from '../migrate/jsonata-cel.js';
import { type Field, type FieldType, type MigrationStep, typeNotation } from '../model.js';
import type { EventDefinition, Path, ResolveContext } from './definition.js';
import { type ConstantMisfit, constantMisfit } from './migration-constant.js';
import { resolvePath, type VersionScope } from './migration-paths.js';
import { celProblemHint } from './rules.js';
import { suggest } from './suggest.js';
import { toPointer } from './yaml-source.js';

// What a `set` step gives must fit the field it sets: a constant is matched against the field's type as
// the validators read it (migration-constant.ts), an expression is type-checked over the version read
// and its result type held to the field's.

type SetStep = Extract<MigrationStep, { kind: 'set' }>;

/** Checks a `set` step's constant against the field it sets in `target`; a misfit is reported at its place in the value. */
export function checkSetValue(
  ctx: ResolveContext,
  def: EventDefinition,
  at: Path,
  step: SetStep & { value: unknown },
  target: VersionScope,
): void {
  const found = resolvePath(target, step.field);
  if (!found || !('field' in found)) return;
  const misfit = constantMisfit(step.value, found.field.type, target.shapeFields);
  if (!misfit) return;
  const segments = misfit.segments;
  const valuePath = [...at, 'set', 'value', ...segments];
  const dotted = [...step.field, ...segments].join('.');
  const { message, hint, onKey, extra } = describe(misfit, dotted);
  const place = extra === undefined ? valuePath : [...valuePath, extra];
  ctx.problems.push(
    def.source.problem(
      'migration-invalid-value',
      place,
      `\`set\` of \`${step.field.join('.')}\` (in \`${target.name}\`): ${message}`,
      hint ?? `The field is ${typeNotation(found.field.type)}: give a value of that type.`,
      onKey,
    ),
  );
}

/** A misfit in words, at `dotted` (the payload's dot path). */
function describe(
  misfit: ConstantMisfit,
  dotted: string,
): { message: string; hint?: string; onKey?: boolean; extra?: string } {
  switch (misfit.kind) {
    case 'required':
      return { message: `\`${dotted}.${misfit.field}\` is missing; it is required.` };
    case 'unknown': {
      const guess = suggest(misfit.key, misfit.known);
      return {
        message: `\`${dotted}.${misfit.key}\` is not a field.`,
        hint: guess !== undefined ? `Did you mean \`${guess}\`?` : `Its fields: ${misfit.known.join(', ')}.`,
        onKey: true,
        extra: misfit.key,
      };
    }
    case 'enum':
      return {
        message: `\`${dotted}\` is not one of the allowed values.`,
        hint: `Use one of: ${misfit.allowed.map((v) => JSON.stringify(v)).join(', ')}.`,
      };
    case 'format':
      return {
        message: `\`${dotted}\` is not a ${misfit.format}.`,
        hint: misfit.format === 'date' ? 'Write `2024-01-31`.' : 'Write `2024-01-31T12:00:00Z`.',
      };
    case 'type':
      return { message: `\`${dotted}\` must be ${typeNotation(misfit.type)}.` };
  }
}

/**
 * Checks a `set` step's expression over `message` (a payload of `source`, before any step): the rules'
 * checks and codes, located inside the expression, then its result type against the field it sets.
 */
export function checkSetCel(
  ctx: ResolveContext,
  def: EventDefinition,
  at: Path,
  step: SetStep & { cel: string },
  source: VersionScope,
  target: VersionScope,
): void {
  const celAt = [...at, 'set', 'cel'];
  const field = step.field.join('.');
  const checked = checkExpression(step.cel, {
    variable: 'message',
    name: source.name,
    fields: source.fields,
    shapeFields: source.shapeFields,
  });
  if (!checked.ok) {
    for (const problem of checked.problems) {
      const hint = celProblemHint(problem);
      ctx.problems.push({
        code: problem.code,
        message: `\`set\` of \`${field}\`: ${migrationMessage(problem.code, problem.message)}`,
        ...(hint ? { hint } : {}),
        ...def.source.within(celAt, step.cel, problem.offset),
        pointer: toPointer(celAt),
      });
    }
    return;
  }
  const found = resolvePath(target, step.field);
  if (!found || !('field' in found)) return;
  if (fits(checked.node.type, found.field.type)) {
    refuseUntranslatable(ctx, def, celAt, field, checked.node);
    return;
  }
  ctx.problems.push(
    def.source.problem(
      'migration-type-mismatch',
      celAt,
      `\`set\` of \`${field}\`: the expression gives ${aType(checked.node.type)}, and \`${field}\` of \`${target.name}\` is ${typeNotation(found.field.type)}.`,
      `Write an expression that gives ${expected(found.field)}.`,
    ),
  );
}

/** An expression the registry's JSONata cannot say is refused here, not left out of the registry later. */
function refuseUntranslatable(
  ctx: ResolveContext,
  def: EventDefinition,
  celAt: Path,
  field: string,
  node: TypedNode,
): void {
  const untranslatable = jsonataSupport(node);
  if (untranslatable === undefined) return;
  ctx.problems.push(
    def.source.problem(
      'rule-unsupported',
      celAt,
      `\`set\` of \`${field}\`: the registry serves migrations as JSONata, which cannot say this: ${untranslatable}.`,
      'Write it with what decision 0171 lists (field reads, has(), literals, arithmetic on doubles, string concatenation, comparisons, ternaries, size(), the listed string functions), or set a constant.',
    ),
  );
}

/** A CEL problem's message as it reads for a migration: an unguarded read fails the migration, not a rule. */
function migrationMessage(code: string, message: string): string {
  const read = /^`([^`]+)` is optional/.exec(message);
  if (code !== 'rule-unguarded-field' || !read) return message;
  return `\`${read[1]}\` is optional: a payload without it makes the expression an error, and the migration would throw.`;
}

/** Whether a CEL result of type `cel` is a JSON value of field type `type` (decision 0160). */
function fits(cel: CelType, type: FieldType): boolean {
  switch (type.kind) {
    case 'string':
      return cel.kind === 'string' || (cel.kind === 'timestamp' && type.format !== 'date');
    case 'integer':
    case 'number':
      return cel.kind === 'int' || cel.kind === 'double';
    case 'boolean':
      return cel.kind === 'bool';
    case 'array':
      return cel.kind === 'list' && fits(cel.of, type.items);
    case 'shape':
      return cel.kind === 'object' && cel.name === type.name;
    case 'object':
      return cel.kind === 'object' || cel.kind === 'map';
  }
}

/** What CEL types a field takes, in words. */
function expected(field: Field): string {
  const type = field.type;
  switch (type.kind) {
    case 'string':
      return type.format === 'date-time' ? 'a string or a timestamp' : 'a string';
    case 'integer':
    case 'number':
      return 'an int or a double';
    case 'boolean':
      return 'a bool';
    case 'array':
      return `a list (${typeNotation(type)})`;
    case 'shape':
      return `a value of shape \`${type.name}\` (such as \`message.<a field of that shape>\`)`;
    case 'object':
      return 'an object';
  }
}
