import { EXTENSION_KEYWORDS } from '../../../schema/json-schema.js';

/**
 * The JSON Schema subset an event's validation schema is made of (see `validationSchema`), read into a
 * typed tree for the code generator: `type` (one name), `format`, `enum`, `items`, `properties`,
 * `required`, `additionalProperties: false` and `$ref` into `$defs`. Anything else is refused, as ajv's
 * strict mode refused it when ajv wrote the code.
 */
export type SchemaNode = RefNode | ValueNode;

/** `$ref` to a named shape of the document's `$defs`. */
export interface RefNode {
  kind: 'ref';
  name: string;
}

/** JSON Schema's `type` names the subset uses. */
export type ValueType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array';

/** A schema with a `type`, and the keywords that apply to it. */
export interface ValueNode {
  kind: 'value';
  type: ValueType;
  format?: string;
  enum?: readonly (string | number)[];
  items?: SchemaNode;
  object?: ObjectRules;
}

/** The object keywords of a schema (any of `properties`, `required`, `additionalProperties`). */
export interface ObjectRules {
  /** `properties`, in the schema's order (`__proto__` among them, a key like any other). */
  properties: [string, SchemaNode][];
  required: string[];
  /** `additionalProperties: false`. */
  closed: boolean;
  /**
   * Whether only own fields are read, and how: `plain` when no field is named like a member of
   * `Object.prototype` (a plain object is then read as it is), `members` otherwise; `none` without
   * `properties` and `required`.
   */
  own: 'none' | 'plain' | 'members';
}

/** A whole validation schema: its root and its `$defs`. */
export interface SchemaTree {
  root: SchemaNode;
  defs: Map<string, SchemaNode>;
}

/** Annotations the code ignores (the schemas of tests and documents carry them). */
const ANNOTATIONS = new Set<string>([
  'title',
  'description',
  '$comment',
  'deprecated',
  ...EXTENSION_KEYWORDS,
]);
const TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'object', 'array']);
/** Field names that a plain object inherits from `Object.prototype`. */
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));
const DEFS_REF = '#/$defs/';

/** Reads a validation schema; `where` names it in errors (an event key). */
export function readSchemaTree(where: string, schema: Record<string, unknown>): SchemaTree {
  const { $schema: _dialect, $id: _id, $defs, ...root } = schema;
  const defs = new Map<string, SchemaNode>();
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
    defs.set(name, readNode(where, def, `#/$defs/${name}`));
  }
  const tree = { root: readNode(where, root, '#'), defs };
  for (const name of refsOf(tree)) {
    if (!defs.has(name)) throw unsupported(where, `#/$defs/${name}`, 'is referred to but not defined');
  }
  return tree;
}

function readNode(where: string, value: unknown, at: string): SchemaNode {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw unsupported(where, at, 'is not a schema object');
  }
  const schema = value as Record<string, unknown>;
  const keywords = Object.keys(schema).filter((keyword) => !ANNOTATIONS.has(keyword));
  if (schema.$ref !== undefined) {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || !ref.startsWith(DEFS_REF) || keywords.length !== 1) {
      throw unsupported(where, at, 'has a `$ref` other than one to `#/$defs/<name>` alone');
    }
    return { kind: 'ref', name: ref.slice(DEFS_REF.length).replaceAll('~1', '/').replaceAll('~0', '~') };
  }
  const type = schema.type;
  if (typeof type !== 'string' || !TYPES.has(type))
    throw unsupported(where, at, 'has no single known `type`');
  const node: ValueNode = { kind: 'value', type: type as ValueType };
  for (const keyword of keywords) {
    switch (keyword) {
      case 'type':
        break;
      case 'format':
        if (type !== 'string' || typeof schema.format !== 'string')
          throw unsupported(where, at, 'has a `format` on a non-string');
        node.format = schema.format;
        break;
      case 'enum':
        if (
          !Array.isArray(schema.enum) ||
          schema.enum.some((v) => typeof v !== 'string' && typeof v !== 'number')
        )
          throw unsupported(where, at, 'has an `enum` of other than strings and numbers');
        node.enum = schema.enum;
        break;
      case 'items':
        if (type !== 'array') throw unsupported(where, at, 'has `items` on a non-array');
        node.items = readNode(where, schema.items, `${at}/items`);
        break;
      case 'properties':
      case 'required':
      case 'additionalProperties':
        if (type !== 'object') throw unsupported(where, at, `has \`${keyword}\` on a non-object`);
        node.object ??= readObject(where, schema, at);
        break;
      default:
        throw unsupported(
          where,
          at,
          `has the keyword \`${keyword}\`, which eventry validators do not compile`,
        );
    }
  }
  return node;
}

function readObject(where: string, schema: Record<string, unknown>, at: string): ObjectRules {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required ?? []) as unknown[];
  if (!Array.isArray(required) || required.some((name) => typeof name !== 'string')) {
    throw unsupported(where, at, 'has a `required` that is not a list of names');
  }
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    throw unsupported(where, at, 'has an `additionalProperties` other than `false`');
  }
  const names = Object.keys(properties);
  const hasFields = schema.properties !== undefined || schema.required !== undefined;
  const members = [...names, ...(required as string[])].some((name) => OBJECT_MEMBERS.has(name));
  return {
    properties: names.map((name) => [name, readNode(where, properties[name], `${at}/properties/${name}`)]),
    required: required as string[],
    closed: schema.additionalProperties === false,
    own: hasFields ? (members ? 'members' : 'plain') : 'none',
  };
}

/** The names of the `$defs` a tree refers to, anywhere. */
function refsOf(tree: SchemaTree): Set<string> {
  const found = new Set<string>();
  const visit = (node: SchemaNode): void => {
    if (node.kind === 'ref') found.add(node.name);
    else {
      if (node.items) visit(node.items);
      for (const [, property] of node.object?.properties ?? []) visit(property);
    }
  };
  visit(tree.root);
  for (const def of tree.defs.values()) visit(def);
  return found;
}

/** Whether a schema refers to a `$defs` entry anywhere inside it (ajv inlines the ones that do not). */
export function hasRef(node: SchemaNode): boolean {
  if (node.kind === 'ref') return true;
  if (node.items && hasRef(node.items)) return true;
  return (node.object?.properties ?? []).some(([, property]) => hasRef(property));
}

function unsupported(where: string, at: string, what: string): Error {
  return new Error(`the validation schema of ${where}: ${at} ${what}`);
}
