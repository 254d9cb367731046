import { quoteRef, RefResolver, SchemaLoadError } from './refs.js';

/**
 * A JSON Schema read the way Confluent's JSON Schema provider reads it before diffing: one node per
 * schema, of the kind its loader builds (everit's `StringSchema`, `NumberSchema`, `ObjectSchema`,
 * `CombinedSchema`, ...). It follows `json/schema/SchemaTranslator.java` (json-sKema to everit, the
 * 2019-09/2020-12 path): each keyword becomes a part, parts of the same kind merge, a type list is a
 * generated `anyOf`, parts of different kinds a generated `allOf`; `format`, `readOnly`, `writeOnly`,
 * `deprecated`, `$comment` and unknown keywords are dropped (Confluent's diff never sees them).
 */

export { SchemaLoadError };

/** The everit schema classes the diff tells apart. */
export type NodeKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'null'
  | 'empty'
  | 'true'
  | 'false'
  | 'const'
  | 'enum'
  | 'combined'
  | 'not'
  | 'object'
  | 'array'
  | 'ref'
  | 'conditional';

/** `allOf`, `anyOf`, `oneOf`. */
export type Criterion = 'allOf' | 'anyOf' | 'oneOf';

/** One loaded schema. Which members are set depends on `kind`. */
export interface SchemaNode {
  kind: NodeKind;
  id?: string;
  title?: string;
  description?: string;
  /** JSON text of `default`, when the schema has one. */
  default?: string;
  // string
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  // number
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: number;
  exclusiveMinimum?: number;
  multipleOf?: number;
  requiresInteger?: boolean;
  // const and enum: canonical JSON texts of the values
  value?: string;
  values?: string[];
  // combined
  criterion?: Criterion;
  subschemas?: SchemaNode[];
  generated?: boolean;
  // not
  mustNotMatch?: SchemaNode;
  // object
  properties?: Map<string, SchemaNode>;
  required?: string[];
  permitsAdditional?: boolean;
  additional?: SchemaNode;
  patternProperties?: Map<string, SchemaNode>;
  propertyDependencies?: Map<string, string[]>;
  schemaDependencies?: Map<string, SchemaNode>;
  maxProperties?: number;
  minProperties?: number;
  unevaluated?: SchemaNode;
  // array
  allItems?: SchemaNode;
  itemSchemas?: SchemaNode[];
  permitsAdditionalItems?: boolean;
  additionalItems?: SchemaNode;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxContains?: number;
  minContains?: number;
  unevaluatedItems?: SchemaNode;
  // ref: resolved lazily (a shape may refer to itself)
  ref?: string;
  resolve?: () => SchemaNode | undefined;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Canonical JSON (sorted keys) of a value, for equality as Java's `equals` on JSON values. */
function jsonKey(value: unknown): string {
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

/**
 * Loads a parsed JSON Schema document as Confluent's diff sees it. Local `#/$defs/X`,
 * `#/definitions/X` and JSON-pointer refs resolve (each to one shared node, as Confluent builds each
 * once); any other `$ref` is an error, as a registry that cannot fetch it would refuse the schema.
 */
export function loadSchemaNode(document: unknown): SchemaNode {
  const root = document;
  const modern =
    isObject(root) && typeof root.$schema === 'string' && /draft\/20(19-09|20-12)\//.test(root.$schema);
  const refs: RefResolver<SchemaNode> = new RefResolver<SchemaNode>(root, (schema, where) =>
    load(schema, where),
  );
  const load = (schema: unknown, where: string): SchemaNode => {
    if (schema === true) return { kind: 'true' };
    if (schema === false) return { kind: 'false' };
    if (!isObject(schema)) throw new SchemaLoadError(`${where}: a schema must be an object or a boolean.`);
    const parts: SchemaNode[] = [];
    const child = (value: unknown, path: string) => load(value, `${where}/${path}`);
    // Before 2019-09 a `$ref` stands for the whole schema object: its siblings are ignored.
    const keywords = Object.entries(schema).filter(
      ([keyword]) => modern || !('$ref' in schema) || keyword === '$ref',
    );
    for (const [keyword, value] of keywords) {
      const part = keywordPart(keyword, value, schema, child, where, modern);
      if (part === 'ref') {
        const ref = String(value);
        if (!/^#(\/.*)?$/.test(ref))
          throw new SchemaLoadError(`${where}/$ref: ${quoteRef(ref)} is not a local reference.`);
        if (refs.targetOf(ref) === undefined)
          throw new SchemaLoadError(`${where}/$ref: ${quoteRef(ref)} names nothing in the schema.`);
        refs.seen.push({ ref, where });
        parts.push({ kind: 'ref', ref, resolve: () => refs.resolve(ref) });
      } else if (part) parts.push(part);
    }
    let node = parts.reduce<SchemaNode | undefined>((acc, part) => (acc ? join(acc, part) : part), undefined);
    if (node === undefined || (isGeneratedAll(node) && node.subschemas!.length === 0))
      node = { kind: 'empty' };
    else if (isGeneratedAll(node) && node.subschemas!.length === 1) node = { ...node.subschemas![0]! };
    else if (parts.length === 1) node = { ...node };
    if (typeof schema.$id === 'string') node.id = schema.$id;
    if (typeof schema.title === 'string') node.title = schema.title;
    if (typeof schema.description === 'string') node.description = schema.description;
    if ('default' in schema) node.default = jsonKey(schema.default);
    return node;
  };
  const node = load(document, '#');
  refs.check();
  return node;
}

type Child = (value: unknown, path: string) => SchemaNode;

/** The part one keyword contributes (SchemaTranslator's `visit*`), `ref` for `$ref`, or nothing. */
function keywordPart(
  keyword: string,
  value: unknown,
  schema: Json,
  child: Child,
  where: string,
  modern: boolean,
): SchemaNode | 'ref' | undefined {
  const number = (v: unknown) => (typeof v === 'number' ? v : undefined);
  switch (keyword) {
    case '$ref':
      return 'ref';
    case 'type':
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
    case 'properties': {
      if (!isObject(value)) return undefined;
      const properties = new Map<string, SchemaNode>();
      for (const [name, property] of Object.entries(value))
        properties.set(name, child(property, `properties/${name}`));
      return { kind: 'object', properties };
    }
    case 'required':
      return Array.isArray(value) ? { kind: 'object', required: value.map(String) } : undefined;
    case 'additionalProperties':
      if (value === false) return { kind: 'object', permitsAdditional: false };
      if (value === true) return { kind: 'object' };
      return { kind: 'object', additional: child(value, 'additionalProperties') };
    case 'patternProperties': {
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
    case 'dependentRequired':
    case 'dependentSchemas':
    case 'dependencies': {
      if (!isObject(value)) return undefined;
      const propertyDependencies = new Map<string, string[]>();
      const schemaDependencies = new Map<string, SchemaNode>();
      for (const [name, dependency] of Object.entries(value)) {
        if (Array.isArray(dependency)) propertyDependencies.set(name, dependency.map(String));
        else schemaDependencies.set(name, child(dependency, `${keyword}/${name}`));
      }
      return { kind: 'object', propertyDependencies, schemaDependencies };
    }
    case 'maxProperties':
      return { kind: 'object', maxProperties: number(value) };
    case 'minProperties':
      return { kind: 'object', minProperties: number(value) };
    case 'unevaluatedProperties':
      // A draft-7 reader (no 2019-09/2020-12 `$schema`) keeps it as an unknown keyword.
      return modern ? { kind: 'object', unevaluated: child(value, keyword) } : undefined;
    case 'items':
      if (Array.isArray(value))
        return { kind: 'array', itemSchemas: value.map((item, index) => child(item, `items/${index}`)) };
      if (value === false) return { kind: 'array', permitsAdditionalItems: false };
      if (value === true) return { kind: 'array' };
      return 'prefixItems' in schema
        ? { kind: 'array', additionalItems: child(value, 'items') }
        : { kind: 'array', allItems: child(value, 'items') };
    case 'prefixItems':
      return Array.isArray(value)
        ? { kind: 'array', itemSchemas: value.map((item, index) => child(item, `prefixItems/${index}`)) }
        : undefined;
    case 'additionalItems':
      if (modern) return undefined;
      if (value === false) return { kind: 'array', permitsAdditionalItems: false };
      if (value === true) return { kind: 'array' };
      return { kind: 'array', additionalItems: child(value, 'additionalItems') };
    case 'maxItems':
      return { kind: 'array', maxItems: number(value) };
    case 'minItems':
      return { kind: 'array', minItems: number(value) };
    case 'uniqueItems':
      return { kind: 'array', uniqueItems: value === true };
    case 'contains':
      return {
        kind: 'array',
        minContains: number(schema.minContains) ?? 1,
        maxContains: number(schema.maxContains),
      };
    case 'unevaluatedItems':
      return modern ? { kind: 'array', unevaluatedItems: child(value, keyword) } : undefined;
    case 'maxLength':
      return { kind: 'string', maxLength: number(value) };
    case 'minLength':
      return { kind: 'string', minLength: number(value) };
    case 'pattern':
      return { kind: 'string', pattern: String(value) };
    case 'maximum':
      return { kind: 'number', maximum: number(value) };
    case 'minimum':
      return { kind: 'number', minimum: number(value) };
    case 'exclusiveMaximum':
      return typeof value === 'number' ? { kind: 'number', exclusiveMaximum: value } : undefined;
    case 'exclusiveMinimum':
      return typeof value === 'number' ? { kind: 'number', exclusiveMinimum: value } : undefined;
    case 'multipleOf':
      return { kind: 'number', multipleOf: number(value) };
    case 'enum':
      return Array.isArray(value) ? { kind: 'enum', values: [...new Set(value.map(jsonKey))] } : undefined;
    case 'const':
      return { kind: 'const', value: jsonKey(value) };
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      if (!Array.isArray(value)) return undefined;
      return {
        kind: 'combined',
        criterion: keyword,
        subschemas: value.map((sub, index) => child(sub, `${keyword}/${index}`)),
      };
    case 'not':
      return { kind: 'not', mustNotMatch: child(value, 'not') };
    case 'if':
      return { kind: 'conditional' };
    default:
      return undefined;
  }
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

const MERGEABLE = new Set<NodeKind>(['string', 'number', 'object', 'array']);

const isGeneratedAll = (node: SchemaNode) =>
  node.kind === 'combined' && node.criterion === 'allOf' && node.generated === true;
const isGeneratedAny = (node: SchemaNode) =>
  node.kind === 'combined' && node.criterion === 'anyOf' && node.generated === true;

/** SchemaTranslator's `join`: two parts of one schema object as one node. */
function join(previous: SchemaNode, current: SchemaNode): SchemaNode {
  if (previous.kind === current.kind && MERGEABLE.has(previous.kind)) return merge(previous, current);
  if (isGeneratedAny(previous) && previous.subschemas!.some((sub) => sameClass(sub, current)))
    return { ...previous, subschemas: accumulate([...previous.subschemas!], current) };
  if (isGeneratedAny(current) && current.subschemas!.some((sub) => sameClass(sub, previous)))
    return { ...current, subschemas: accumulate([...current.subschemas!], previous) };
  const flatten = (node: SchemaNode) => (isGeneratedAll(node) ? node.subschemas! : [node]);
  const list: SchemaNode[] = [];
  for (const node of [...flatten(previous), ...flatten(current)]) accumulate(list, node);
  return { kind: 'combined', criterion: 'allOf', generated: true, subschemas: list };
}

/** everit's `schemaTypesEqual`: the same class (any two combined schemas count as one class). */
export function sameClass(a: SchemaNode, b: SchemaNode): boolean {
  return a.kind === b.kind;
}

function accumulate(list: SchemaNode[], current: SchemaNode): SchemaNode[] {
  const index = list.findIndex((node) => node.kind === current.kind && MERGEABLE.has(node.kind));
  if (index >= 0) list[index] = merge(list[index]!, current);
  else list.push(current);
  return list;
}

/** SchemaUtils `merge`: the union of two parts of the same kind. */
function merge(a: SchemaNode, b: SchemaNode): SchemaNode {
  const out: SchemaNode = { ...a };
  for (const [key, value] of Object.entries(b) as [keyof SchemaNode, unknown][]) {
    if (value === undefined) continue;
    if (key === 'properties' || key === 'patternProperties' || key === 'schemaDependencies') {
      out[key] = new Map([
        ...((a[key] as Map<string, SchemaNode>) ?? []),
        ...(value as Map<string, SchemaNode>),
      ]);
    } else if (key === 'propertyDependencies') {
      out[key] = new Map([...(a[key] ?? []), ...(value as Map<string, string[]>)]);
    } else if (key === 'required') {
      out.required = [...new Set([...(a.required ?? []), ...(value as string[])])];
    } else if (key === 'permitsAdditional' || key === 'permitsAdditionalItems') {
      if (value === false) out[key] = false;
    } else if (key === 'requiresInteger' || key === 'uniqueItems') {
      if (value === true) out[key] = true;
    } else {
      (out as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return out;
}
