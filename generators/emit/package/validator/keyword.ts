import type { Code, CodeGen, Name } from 'ajv/dist/compile/codegen/index.js';
import type { Place } from '../../../runtime/types.js';
import type { Path } from './paths.js';
import type { SchemaNode, ValueNode } from './schema-tree.js';

/**
 * One keyword (or family of keywords) of the schema subset, as the writer compiles it: the writer walks
 * the table of them (`keywords/index.ts`) in its order, as ajv walks its vocabularies' definitions
 * (`ajv/lib/vocabularies/`), and each writes its own checks.
 */
export interface KeywordDefinition {
  /** The schema keyword(s) it compiles. */
  keyword: string;
  /**
   * `type`: a keyword of the type's own, checked under the type's test (the type error in its `else`);
   * `any`: of a value of any type, checked after the type's test when no keyword of the type's own applies.
   */
  of: 'type' | 'any';
  /** Whether the schema has it. */
  applies(node: ValueNode): boolean;
  /** Writes its checks of the value in `cxt.data`. */
  code(cxt: KeywordContext): void;
}

/** What a keyword's code is given (ajv's `KeywordCxt`, cut to what the subset needs). */
export interface KeywordContext {
  /** The functions' code (`validate0`, ...). */
  gen: CodeGen;
  /** The schema the keyword is in. */
  node: ValueNode;
  /** The variable holding the value, and where the value is in the payload. */
  data: Name;
  path: Path;
  writer: ValidatorScope;
}

/** What the writer lends every keyword. */
export interface ValidatorScope {
  /** Writes the checks of a subschema on the value in `data`, found at `path` in `parentData`. */
  value(node: SchemaNode, data: Name, path: Path, parentData: Code): void;
  /** Numbers a place that reports an error (the run time's `site`). */
  place(place: Place): number;
  /**
   * A constant declared once ahead of the functions (`const enum0 = [...]`): the first call with a
   * `prefix` and `key` declares what `code` gives, every later one gets the same name.
   */
  declare(prefix: string, key: string, code: () => Code): Name;
  /** Whether a value is checked by its type alone: no keyword of the table applies to it. */
  isPlain(node: SchemaNode): boolean;
}
