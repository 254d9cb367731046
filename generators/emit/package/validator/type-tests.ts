import { _, type Code, type Name } from 'ajv/dist/compile/codegen/index.js';
import type { SchemaNode, ValueNode } from './schema-tree.js';

/** A field checked by its type alone: the fields a wide object's quick pass covers (`quick-check.ts`). */
export function isPlain(schema: SchemaNode): boolean {
  return schema.kind === 'value' && !hasTypeKeywords(schema) && schema.enum === undefined;
}

/** Whether a schema has keywords of its type's own (ajv then checks them under the type's check). */
export function hasTypeKeywords(node: ValueNode): boolean {
  return node.format !== undefined || node.items !== undefined || node.object !== undefined;
}

/** ajv's test that a value is of a JSON Schema type (numbers strict: finite), as ajv decides it. */
export function isType(type: ValueNode['type'], data: Name): Code {
  switch (type) {
    case 'string':
    case 'boolean':
      return _`typeof ${data} == ${type}`;
    // What ajv tests (`typeof x == "number" && isFinite(x)`, and `!(x % 1) && !isNaN(x)` besides for an
    // integer), in the builtins V8 compiles to a few instructions.
    case 'number':
      return _`Number.isFinite(${data})`;
    case 'integer':
      return _`Number.isInteger(${data})`;
    case 'array':
      return _`Array.isArray(${data})`;
    // ajv writes `x && typeof x == "object"`: the same decision, but a test of truth takes V8 a check of
    // every falsy kind of value.
    case 'object':
      return _`typeof ${data} == "object" && ${data} !== null && !Array.isArray(${data})`;
  }
}
