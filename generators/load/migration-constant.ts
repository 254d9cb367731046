import { createRequire } from 'node:module';
import type { Field, FieldType } from '../model.js';

/**
 * Whether a migration's constant (`set: {value}`) is a JSON value of a field's type, read from the model
 * as the validators read it: closed shapes (every required field, no undocumented one), integers,
 * enums, and the `date`/`date-time` formats through ajv-formats' own functions, the ones the packages'
 * validators call. Plain code, not ajv's compiler: every command loads the catalogue, and compiling a
 * schema per constant cost ~100 ms at start (decision 0160).
 */
export type ConstantMisfit = { segments: (string | number)[] } & (
  | { kind: 'type'; type: FieldType }
  | { kind: 'required'; field: string }
  | { kind: 'unknown'; key: string; known: string[] }
  | { kind: 'enum'; allowed: readonly (string | number)[] }
  | { kind: 'format'; format: 'date' | 'date-time' }
);

type ShapeFields = (name: string) => readonly Field[] | undefined;
type FormatCheck = (text: string) => boolean;

let formats: Record<'date' | 'date-time', FormatCheck> | undefined;

/** ajv-formats' full `date` and `date-time` checks (a small module, loaded on first use). */
function formatCheck(format: 'date' | 'date-time'): FormatCheck {
  if (!formats) {
    const require = createRequire(import.meta.url);
    const { fullFormats } = require('ajv-formats/dist/formats.js') as {
      fullFormats: Record<string, { validate: FormatCheck }>;
    };
    formats = { date: fullFormats.date!.validate, 'date-time': fullFormats['date-time']!.validate };
  }
  return formats[format];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first way `value` does not fit `type`, at its place in the value; undefined when it fits. */
export function constantMisfit(
  value: unknown,
  type: FieldType,
  shapeFields: ShapeFields,
  segments: (string | number)[] = [],
): ConstantMisfit | undefined {
  switch (type.kind) {
    case 'object':
      return isObject(value) ? undefined : { segments, kind: 'type', type };
    case 'array': {
      if (!Array.isArray(value)) return { segments, kind: 'type', type };
      for (const [index, item] of value.entries()) {
        const misfit = constantMisfit(item, type.items, shapeFields, [...segments, index]);
        if (misfit) return misfit;
      }
      return undefined;
    }
    case 'shape':
      if (!isObject(value)) return { segments, kind: 'type', type };
      return shapeMisfit(value, shapeFields(type.name) ?? [], shapeFields, segments);
    default:
      return scalarMisfit(value, type, segments);
  }
}

function shapeMisfit(
  value: Record<string, unknown>,
  fields: readonly Field[],
  shapeFields: ShapeFields,
  segments: (string | number)[],
): ConstantMisfit | undefined {
  const missing = fields.find((field) => field.required && !Object.hasOwn(value, field.name));
  if (missing) return { segments, kind: 'required', field: missing.name };
  const known = fields.map((field) => field.name);
  const unknown = Object.keys(value).find((key) => !known.includes(key));
  if (unknown !== undefined) return { segments, kind: 'unknown', key: unknown, known };
  for (const field of fields) {
    if (!Object.hasOwn(value, field.name)) continue;
    const misfit = constantMisfit(value[field.name], field.type, shapeFields, [...segments, field.name]);
    if (misfit) return misfit;
  }
  return undefined;
}

function scalarMisfit(
  value: unknown,
  type: Extract<FieldType, { kind: 'string' | 'integer' | 'number' | 'boolean' }>,
  segments: (string | number)[],
): ConstantMisfit | undefined {
  const fits =
    type.kind === 'string'
      ? typeof value === 'string'
      : type.kind === 'boolean'
        ? typeof value === 'boolean'
        : typeof value === 'number' &&
          Number.isFinite(value) &&
          (type.kind === 'number' || Number.isInteger(value));
  if (!fits) return { segments, kind: 'type', type };
  if (type.enum && !type.enum.includes(value as string | number))
    return { segments, kind: 'enum', allowed: type.enum };
  if (type.format && !formatCheck(type.format)(value as string))
    return { segments, kind: 'format', format: type.format };
  return undefined;
}
