import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { checkExpression } from '../cel/check.js';
import { aType, type CelType } from '../cel/types.js';
import { type Field, type FieldType, type MigrationStep, type Shape, typeNotation } from '../model.js';
import { type SchemaOptions, shapeSchema, typeSchema } from '../schema/json-schema.js';
import type { EventDefinition, Path, ResolveContext } from './definition.js';
import { resolvePath, type VersionScope } from './migration-paths.js';
import { celProblemHint } from './rules.js';
import { suggest } from './suggest.js';
import { toPointer } from './yaml-source.js';

// What a `set` step gives must fit the field it sets: a constant is validated with the field's JSON
// Schema (the one every emitter writes, closed, formats checked) through ajv, an expression is
// type-checked over the version read and its result type held to the field's.

type SetStep = Extract<MigrationStep, { kind: 'set' }>;

/** One compiler for a load: ajv's compiler is imported only by a catalogue with a `set: {value}`. */
let compiler: Ajv2020 | undefined;
/** Each schema compiled once by its text: a process that loads again (`serve`, `mcp`) compiles nothing twice. */
const compiled = new Map<string, ValidateFunction>();

function compile(schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (!validate) {
    validate = compileNew(schema);
    compiled.set(text, validate);
  }
  return validate;
}

function compileNew(schema: Record<string, unknown>): ValidateFunction {
  if (!compiler) {
    // Loaded here, not imported: every command loads a catalogue, and ajv's compiler costs its start
    // (test/load/start-up.test.ts).
    const require = createRequire(import.meta.url);
    const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as { Ajv2020: new (options: object) => Ajv2020 };
    compiler = new Ajv({ strict: true, allErrors: false, verbose: true });
    (require('ajv-formats') as { default: (ajv: Ajv2020) => void }).default(compiler);
  }
  return compiler.compile(schema);
}

/** The closed JSON Schema of a field's type, with the shapes it uses in `$defs`; undefined if one is not defined. */
function fieldSchema(type: FieldType, scope: VersionScope): Record<string, unknown> | undefined {
  const options: SchemaOptions = { ref: (name) => `#/$defs/${name}`, mode: 'closed', bare: true };
  const defs: Record<string, unknown> = {};
  const pending: FieldType[] = [type];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.kind === 'array') pending.push(next.items);
    if (next.kind !== 'shape' || Object.hasOwn(defs, next.name)) continue;
    const fields = scope.shapeFields(next.name);
    if (!fields) return undefined;
    const shape: Shape = { name: next.name, fields: [...fields], source: { file: '', line: 0, column: 0 } };
    defs[next.name] = shapeSchema(shape, options);
    for (const field of fields) pending.push(field.type);
  }
  return { ...typeSchema(type, options), ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) };
}

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
  const schema = fieldSchema(found.field.type, target);
  if (!schema) return;
  const validate = compile(schema);
  if (validate(step.value)) return;
  const error = validate.errors![0]!;
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  const valuePath = [
    ...at,
    'set',
    'value',
    ...segments.map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
  ];
  const dotted = [...step.field, ...segments].join('.');
  const { message, hint, onKey, extra } = describe(error, dotted);
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

/** An ajv error in words, at `dotted` (the payload's dot path). */
function describe(
  error: ErrorObject,
  dotted: string,
): { message: string; hint?: string; onKey?: boolean; extra?: string } {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { message: `\`${dotted}.${String(params.missingProperty)}\` is missing; it is required.` };
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object }).properties ?? {});
      const guess = suggest(key, known);
      return {
        message: `\`${dotted}.${key}\` is not a field.`,
        hint: guess !== undefined ? `Did you mean \`${guess}\`?` : `Its fields: ${known.join(', ')}.`,
        onKey: true,
        extra: key,
      };
    }
    case 'enum':
      return {
        message: `\`${dotted}\` is not one of the allowed values.`,
        hint: `Use one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`,
      };
    case 'format':
      return {
        message: `\`${dotted}\` is not a ${String(params.format)}.`,
        hint: params.format === 'date' ? 'Write `2024-01-31`.' : 'Write `2024-01-31T12:00:00Z`.',
      };
    default:
      return { message: `\`${dotted}\` ${error.message ?? 'is invalid'}.` };
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
  if (fits(checked.node.type, found.field.type)) return;
  ctx.problems.push(
    def.source.problem(
      'migration-type-mismatch',
      celAt,
      `\`set\` of \`${field}\`: the expression gives ${aType(checked.node.type)}, and \`${field}\` of \`${target.name}\` is ${typeNotation(found.field.type)}.`,
      `Write an expression that gives ${expected(found.field)}.`,
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
