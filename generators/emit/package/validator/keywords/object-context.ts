import type { Name } from 'ajv/dist/compile/codegen/index.js';
import type { KeywordContext } from '../keyword.js';
import type { QuickCheck } from '../quick-check.js';
import type { ObjectRules } from '../schema-tree.js';

/** What the object keywords are given: the keyword's context, and the object's fields read so far. */
export interface ObjectContext extends KeywordContext {
  rules: ObjectRules;
  /** Each field's local, by name (a wide object's plain fields: set by the quick pass's `restore`). */
  locals: Map<string, Name>;
  /** The fields a wide object's quick pass covers (none when the object is not wide). */
  plain: Set<string>;
  quick: QuickCheck | undefined;
}

/** One keyword of the object family (`object.ts`), which the family writes in its order. */
export interface ObjectKeywordDefinition {
  keyword: string;
  applies(rules: ObjectRules): boolean;
  code(obj: ObjectContext): void;
}
