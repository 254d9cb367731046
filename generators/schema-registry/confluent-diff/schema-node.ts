import { isObject, jsonKey, keywordPart } from './keyword-parts.js';
import type { NodeKind, SchemaNode } from './node.js';
import { quoteRef, RefResolver, SchemaLoadError } from './refs.js';

/**
 * A JSON Schema read the way Confluent's JSON Schema provider reads it before diffing: one node per
 * schema, of the kind its loader builds (everit's `StringSchema`, `NumberSchema`, `ObjectSchema`,
 * `CombinedSchema`, ...). It follows `json/schema/SchemaTranslator.java` (json-sKema to everit, the
 * 2019-09/2020-12 path): each keyword becomes a part, parts of the same kind merge, a type list is a
 * generated `anyOf`, parts of different kinds a generated `allOf`; `format`, `readOnly`, `writeOnly`,
 * `deprecated`, `$comment` and unknown keywords are dropped (Confluent's diff never sees them).
 */

export type { SchemaNode } from './node.js';
export { SchemaLoadError };

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
      const part = keywordPart(value, { keyword, schema, child, where, modern });
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
