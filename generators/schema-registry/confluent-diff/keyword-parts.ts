import type { SchemaNode } from './node.js';
import { quoteRef, SchemaLoadError } from './refs.js';

/**
 * The part each keyword of a schema object contributes, as SchemaTranslator's `visit*` methods build
 * them (`json/schema/SchemaTranslator.java`): one entry per keyword, grouped by the everit class the
 * part is of. The loader (`schema-node.ts`) looks each keyword up here and joins the parts; a keyword
 * with no entry (`format`, `readOnly`, `$comment`, unknown ones) contributes nothing.
 */

type Json = Record<string, unknown>;

/** What a part is built from besides the keyword's value. */
export interface PartContext {
  keyword: string;
  /** The whole schema object the keyword is in. */
  schema: Json;
  /** Loads a subschema found at `path` (relative to `where`). */
  child: (value: unknown, path: string) => SchemaNode;
  where: string;
  /** Whether the document is 2019-09 or 2020-12 (by its `$schema`). */
  modern: boolean;
}

/** A keyword's part, `ref` for `$ref` (the loader resolves it), or nothing. */
type Part = (value: unknown, cxt: PartContext) => SchemaNode | 'ref' | undefined;

export const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Canonical JSON (sorted keys) of a value, for equality as Java's `equals` on JSON values. */
export function jsonKey(value: unknown): string {
  const sort = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(sort);
    if (!isObject(node)) return node;
    return Object.fromEntries(
      Object.keys(node)
        .sort()
        .map((key) => [key, sort(node[key])]),
    );
  };
  return JSON.stringify(sort(value)) ?? 'null';
}

/** `$ref`, `type`, `enum`, `const`, the combinators, `not` and `if`. */
const CORE: [string, Part][] = [
  ['$ref', () => 'ref'],
  ['type', typePart],
  [
    'enum',
    (value) =>
      Array.isArray(value) ? { kind: 'enum', values: [...new Set(value.map(jsonKey))] } : undefined,
  ],
  ['const', (value) => ({ kind: 'const', value: jsonKey(value) })],
  ['allOf', combinedPart],
  ['anyOf', combinedPart],
  ['oneOf', combinedPart],
  ['not', (value, { child }) => ({ kind: 'not', mustNotMatch: child(value, 'not') })],
  ['if', () => ({ kind: 'conditional' })],
];

/** The keywords of `ObjectSchema`. */
const OBJECT: [string, Part][] = [
  ['properties', propertiesPart],
  [
    'required',
    (value) => (Array.isArray(value) ? { kind: 'object', required: value.map(String) } : undefined),
  ],
  [
    'additionalProperties',
    (value, { child }) => {
      if (value === false) return { kind: 'object', permitsAdditional: false };
      if (value === true) return { kind: 'object' };
      return { kind: 'object', additional: child(value, 'additionalProperties') };
    },
  ],
  ['patternProperties', patternPropertiesPart],
  ['dependentRequired', dependenciesPart],
  ['dependentSchemas', dependenciesPart],
  ['dependencies', dependenciesPart],
  ['maxProperties', (value) => ({ kind: 'object', maxProperties: number(value) })],
  ['minProperties', (value) => ({ kind: 'object', minProperties: number(value) })],
  // A draft-7 reader (no 2019-09/2020-12 `$schema`) keeps it as an unknown keyword.
  [
    'unevaluatedProperties',
    (value, { child, keyword, modern }) =>
      modern ? { kind: 'object', unevaluated: child(value, keyword) } : undefined,
  ],
];

/** The keywords of `ArraySchema`. */
const ARRAY: [string, Part][] = [
  ['items', itemsPart],
  [
    'prefixItems',
    (value, { child }) =>
      Array.isArray(value)
        ? { kind: 'array', itemSchemas: value.map((item, index) => child(item, `prefixItems/${index}`)) }
        : undefined,
  ],
  [
    'additionalItems',
    (value, { child, modern }) => {
      if (modern) return undefined;
      if (value === false) return { kind: 'array', permitsAdditionalItems: false };
      if (value === true) return { kind: 'array' };
      return { kind: 'array', additionalItems: child(value, 'additionalItems') };
    },
  ],
  ['maxItems', (value) => ({ kind: 'array', maxItems: number(value) })],
  ['minItems', (value) => ({ kind: 'array', minItems: number(value) })],
  ['uniqueItems', (value) => ({ kind: 'array', uniqueItems: value === true })],
  [
    'contains',
    (_value, { schema }) => ({
      kind: 'array',
      minContains: number(schema.minContains) ?? 1,
      maxContains: number(schema.maxContains),
    }),
  ],
  [
    'unevaluatedItems',
    (value, { child, keyword, modern }) =>
      modern ? { kind: 'array', unevaluatedItems: child(value, keyword) } : undefined,
  ],
];

/** The keywords of `StringSchema` and `NumberSchema`. */
const SCALAR: [string, Part][] = [
  ['maxLength', (value) => ({ kind: 'string', maxLength: number(value) })],
  ['minLength', (value) => ({ kind: 'string', minLength: number(value) })],
  ['pattern', (value) => ({ kind: 'string', pattern: String(value) })],
  ['maximum', (value) => ({ kind: 'number', maximum: number(value) })],
  ['minimum', (value) => ({ kind: 'number', minimum: number(value) })],
  [
    'exclusiveMaximum',
    (value) => (typeof value === 'number' ? { kind: 'number', exclusiveMaximum: value } : undefined),
  ],
  [
    'exclusiveMinimum',
    (value) => (typeof value === 'number' ? { kind: 'number', exclusiveMinimum: value } : undefined),
  ],
  ['multipleOf', (value) => ({ kind: 'number', multipleOf: number(value) })],
];

/** Every keyword's part, by keyword (a map: a keyword named like an object member is no entry). */
const PARTS = new Map<string, Part>([...CORE, ...OBJECT, ...ARRAY, ...SCALAR]);

/** The part one keyword contributes (SchemaTranslator's `visit*`), `ref` for `$ref`, or nothing. */
export function keywordPart(value: unknown, cxt: PartContext): SchemaNode | 'ref' | undefined {
  return PARTS.get(cxt.keyword)?.(value, cxt);
}

function typePart(value: unknown, { where }: PartContext): SchemaNode {
  if (typeof value === 'string') return typeNode(value, where);
  if (Array.isArray(value)) {
    return {
      kind: 'combined',
      criterion: 'anyOf',
      generated: true,
      subschemas: value.map((type) => typeNode(String(type), where)),
    };
  }
  throw new SchemaLoadError(`${where}/type: must be a string or a list of strings.`);
}

function typeNode(type: string, where: string): SchemaNode {
  switch (type) {
    case 'string':
    case 'boolean':
    case 'null':
    case 'object':
    case 'array':
    case 'number':
      return { kind: type };
    case 'integer':
      return { kind: 'number', requiresInteger: true };
    default:
      throw new SchemaLoadError(`${where}/type: ${JSON.stringify(type)} is not a JSON Schema type.`);
  }
}

function combinedPart(value: unknown, { keyword, child }: PartContext): SchemaNode | undefined {
  if (!Array.isArray(value)) return undefined;
  return {
    kind: 'combined',
    criterion: keyword as 'allOf' | 'anyOf' | 'oneOf',
    subschemas: value.map((sub, index) => child(sub, `${keyword}/${index}`)),
  };
}

function propertiesPart(value: unknown, { child }: PartContext): SchemaNode | undefined {
  if (!isObject(value)) return undefined;
  const properties = new Map<string, SchemaNode>();
  for (const [name, property] of Object.entries(value))
    properties.set(name, child(property, `properties/${name}`));
  return { kind: 'object', properties };
}

function patternPropertiesPart(value: unknown, { child, where }: PartContext): SchemaNode | undefined {
  if (!isObject(value)) return undefined;
  const patterns = new Map<string, SchemaNode>();
  for (const [pattern, sub] of Object.entries(value)) {
    if (!compiles(pattern))
      throw new SchemaLoadError(
        `${where}/patternProperties: ${quoteRef(pattern)} is not a regular expression.`,
      );
    patterns.set(pattern, child(sub, `patternProperties/${pattern}`));
  }
  return { kind: 'object', patternProperties: patterns };
}

/** `dependentRequired`, `dependentSchemas` and draft 7's `dependencies` (lists and schemas alike). */
function dependenciesPart(value: unknown, { keyword, child }: PartContext): SchemaNode | undefined {
  if (!isObject(value)) return undefined;
  const propertyDependencies = new Map<string, string[]>();
  const schemaDependencies = new Map<string, SchemaNode>();
  for (const [name, dependency] of Object.entries(value)) {
    if (Array.isArray(dependency)) propertyDependencies.set(name, dependency.map(String));
    else schemaDependencies.set(name, child(dependency, `${keyword}/${name}`));
  }
  return { kind: 'object', propertyDependencies, schemaDependencies };
}

function itemsPart(value: unknown, { schema, child }: PartContext): SchemaNode {
  if (Array.isArray(value))
    return { kind: 'array', itemSchemas: value.map((item, index) => child(item, `items/${index}`)) };
  if (value === false) return { kind: 'array', permitsAdditionalItems: false };
  if (value === true) return { kind: 'array' };
  return 'prefixItems' in schema
    ? { kind: 'array', additionalItems: child(value, 'items') }
    : { kind: 'array', allItems: child(value, 'items') };
}

/** Whether a pattern compiles (as Unicode, or else as the diff's fallback reads it). */
function compiles(pattern: string): boolean {
  for (const flags of ['u', '']) {
    try {
      new RegExp(pattern, flags);
      return true;
    } catch {
      // try the next reading
    }
  }
  return false;
}
