import { _, type Code, type Name } from 'ajv/dist/compile/codegen/index.js';
import type { KeywordContext } from '../keyword.js';
import { MISTYPED, OPTIONS, PARENT_DATA, RUN } from '../names.js';
import { pathParts } from '../paths.js';
import type { ValueNode } from '../schema-tree.js';

/**
 * `type`: the test every value schema starts with, which the writer's walk places (the keywords of the
 * type's own under it, see `KeywordDefinition.of`), and its error.
 */

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

/** The value is not of the schema's type: the run time's `mistyped` (with the parent of a function's own value). */
export function writeTypeError({ gen, node, data, path, writer }: KeywordContext): void {
  const { prefix, suffix } = pathParts(path, '');
  const root = path.last === 'root';
  const site = writer.place([2, suffix, node.type, root ? null : path.last === 'index']);
  const parent = root ? _`, ${PARENT_DATA}` : _``;
  gen.assign(RUN, _`${MISTYPED}(${RUN}, ${OPTIONS}, ${site}, ${prefix}, ${data}${parent})`);
}
