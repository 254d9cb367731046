import {
  type Classification,
  type Field,
  type FieldType,
  type ScalarKind,
  type StringFormat,
  typeNotation,
} from '../model.js';
import {
  type Definition,
  optionalString,
  type Path,
  type RawField,
  type ResolveContext,
  readMap,
  type Unchecked,
} from './definition.js';
import { suggest } from './suggest.js';
import type { YamlSource } from './yaml-source.js';

/** Deepest array type (`[[[T]]]` is 3): beyond this the generated types and examples stop being useful. */
const MAX_ARRAY_DEPTH = 8;

const BUILTINS = ['string', 'integer', 'number', 'boolean', 'object'];
/** Field names a JavaScript object already has: as payload keys they break generated code and validators. */
const RESERVED_FIELD_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Type names from other languages, too far from ours for an edit-distance guess. */
const TYPE_ALIASES = new Map([
  ['bool', 'boolean'],
  ['int', 'integer'],
  ['long', 'integer'],
  ['float', 'number'],
  ['double', 'number'],
  ['decimal', 'number'],
  ['str', 'string'],
  ['text', 'string'],
  ['map', 'object'],
  ['dict', 'object'],
  ['json', 'object'],
  ['any', 'object'],
]);

/** The fields a definition lists itself (`fields:`), types parsed; a field that cannot be read is left out. */
export function readOwnFields(ctx: ResolveContext, def: Definition): Field[] {
  const fields: Field[] = [];
  for (const [name, raw] of Object.entries(readMap<Record<string, RawField>>(def.raw.fields) ?? {})) {
    const path = [...def.path, 'fields', name];
    const spec = readMap<RawField>(raw);
    if (!spec) continue;
    if (RESERVED_FIELD_NAMES.has(name)) {
      ctx.problems.push(
        def.source.problem(
          'reserved-name',
          path,
          `\`${name}\` cannot be a field name: every JavaScript object already has it.`,
          'Rename the field (the platform sends no such field); names like `__proto__` and `hasOwnProperty` break generated code.',
          true,
        ),
      );
      continue;
    }
    const type = parseType(ctx, def.source, spec.type, [...path, 'type']);
    if (!type) continue;
    const withFacets = applyFacets(ctx, def.source, type, spec, path);
    if (!withFacets) continue;
    fields.push({
      name,
      type: withFacets,
      required: spec.required === true,
      ...optionalString('description', spec.description),
      ...readClassification(spec.classification),
      source: def.source.keyAt(path),
    });
  }
  return fields;
}

const CLASSIFICATIONS: ReadonlySet<unknown> = new Set<Classification>([
  'public',
  'internal',
  'personal',
  'sensitive',
]);

/** `{ classification }` when the value is one the format knows (the shape check reports any other). */
function readClassification(value: unknown): { classification?: Classification } {
  return CLASSIFICATIONS.has(value) ? { classification: value as Classification } : {};
}

/** A field's `type:` (a name or `[T]`) as a model type; reports what it cannot name, with a guess. */
function parseType(
  ctx: ResolveContext,
  source: YamlSource,
  raw: unknown,
  path: Path,
  depth = 0,
): FieldType | undefined {
  const { problems, shapeDefs } = ctx;
  if (Array.isArray(raw)) {
    if (depth >= MAX_ARRAY_DEPTH) {
      problems.push(
        source.problem(
          'array-too-deep',
          path,
          `Arrays nest more than ${MAX_ARRAY_DEPTH} levels deep here.`,
          'Nest fewer arrays, or give the inner items a named shape.',
        ),
      );
      return undefined;
    }
    if (raw.length !== 1) {
      problems.push(
        source.problem(
          'unknown-type',
          path,
          'An array type lists exactly one item type.',
          'Write `[string]`, `[Ledger]`, `[[integer]]`.',
        ),
      );
      return undefined;
    }
    const items = parseType(ctx, source, raw[0], [...path, 0], depth + 1);
    return items ? { kind: 'array', items } : undefined;
  }
  if (typeof raw !== 'string') {
    problems.push(
      source.problem(
        'unknown-type',
        path,
        `The field type must be a name or \`[T]\`, not ${raw === null ? 'empty' : typeof raw}.`,
        `Use one of ${BUILTINS.join(', ')}, [T] or a named shape.`,
      ),
    );
    return undefined;
  }
  if (raw === 'object') return { kind: 'object' };
  const scalar = scalarKind(raw);
  if (scalar) return { kind: scalar };
  if (/^[A-Z][A-Za-z0-9]*$/.test(raw)) {
    if (shapeDefs.has(raw)) return { kind: 'shape', name: raw };
    if (ctx.incomplete) return undefined;
    const builtin =
      TYPE_ALIASES.get(raw.toLowerCase()) ?? BUILTINS.find((name) => name === raw.toLowerCase());
    const guess = builtin ?? suggest(raw, shapeDefs.keys());
    problems.push(
      source.problem(
        'unknown-shape',
        path,
        `Shape \`${raw}\` is not defined.`,
        guess ? `Did you mean \`${guess}\`?` : 'Define it under `shapes:`, or check the spelling.',
      ),
    );
    return undefined;
  }
  const guess = TYPE_ALIASES.get(raw.toLowerCase()) ?? suggest(raw, [...BUILTINS, ...shapeDefs.keys()]);
  problems.push(
    source.problem(
      'unknown-type',
      path,
      `Unknown type \`${raw}\`.`,
      `${guess ? `Did you mean \`${guess}\`? ` : ''}Types are ${BUILTINS.join(', ')}, [T] (array of T) or a named shape.`,
    ),
  );
  return undefined;
}

/** Puts `format` / `enum` on the innermost scalar of the type, where they make sense. */
function applyFacets(
  ctx: ResolveContext,
  source: YamlSource,
  type: FieldType,
  spec: Unchecked<RawField>,
  path: Path,
): FieldType | undefined {
  const { problems } = ctx;
  if (spec.format === undefined && spec.enum === undefined) return type;
  if (type.kind === 'array') {
    const items = applyFacets(ctx, source, type.items, spec, path);
    return items ? { kind: 'array', items } : undefined;
  }
  if (type.kind === 'object' || type.kind === 'shape' || type.kind === 'boolean') {
    const facet = spec.format !== undefined ? 'format' : 'enum';
    problems.push(
      source.problem(
        'invalid-format',
        [...path, facet],
        `\`${facet}\` does not apply to a \`${typeNotation(type)}\` field.`,
        '`format` goes on strings; `enum` on strings, integers and numbers.',
      ),
    );
    return undefined;
  }
  if (spec.format !== undefined && type.kind !== 'string') {
    problems.push(
      source.problem(
        'invalid-format',
        [...path, 'format'],
        `\`format: ${String(spec.format)}\` applies to strings, not \`${type.kind}\`.`,
        'Drop the format, or make the field a string.',
      ),
    );
    return undefined;
  }
  let values: (string | number)[] | undefined;
  if (Array.isArray(spec.enum)) {
    values = [];
    for (const [index, value] of spec.enum.entries()) {
      const fitting = enumValue(value, type.kind);
      if (fitting === undefined) {
        problems.push(
          source.problem(
            'invalid-format',
            [...path, 'enum', index],
            // As JSON, so the string "2" in an integer enum does not read like the number 2.
            `Enum value \`${JSON.stringify(value)}\` is not ${aKind(type.kind)}.`,
            `Every value of a \`${type.kind}\` field's enum must be ${aKind(type.kind)}${type.kind === 'string' ? ' (quote numbers)' : ' (without quotes)'}.`,
          ),
        );
        return undefined;
      }
      values.push(fitting);
    }
  }
  const format = stringFormat(spec.format);
  return {
    kind: type.kind,
    ...(format ? { format } : {}),
    ...(values ? { enum: values } : {}),
  };
}

/** The scalar kind a built-in type name names, if it names one. */
function scalarKind(name: string): ScalarKind | undefined {
  switch (name) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return name;
    default:
      return undefined;
  }
}

/**
 * A `format:` the model knows. Any other value has failed the shape check already (so the catalogue
 * does not load), and is dropped here rather than carried into a model no one will see.
 */
function stringFormat(value: unknown): StringFormat | undefined {
  return value === 'date' || value === 'date-time' ? value : undefined;
}

/** `value` if it may be in the enum of a `kind` field, else undefined. */
function enumValue(value: unknown, kind: 'string' | 'integer' | 'number'): string | number | undefined {
  if (kind === 'string') return typeof value === 'string' ? value : undefined;
  if (typeof value !== 'number') return undefined;
  return kind === 'number' || Number.isInteger(value) ? value : undefined;
}

function aKind(kind: string): string {
  return `${kind === 'integer' ? 'an' : 'a'} ${kind}`;
}
