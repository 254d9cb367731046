import type { KeywordDefinition } from '../keyword.js';
import { enumKeyword } from './enum.js';
import { formatKeyword } from './format.js';
import { itemsKeyword } from './items.js';
import { objectKeywords } from './object.js';

/**
 * The keywords the writer compiles, in ajv's order: `enum` first, then the type's own keywords (the
 * `type` test itself is the walk's, `type.ts`). A new keyword is a file here and a row in this table
 * (and its reading in `schema-tree.ts`).
 */
export const KEYWORDS: readonly KeywordDefinition[] = [
  enumKeyword,
  formatKeyword,
  itemsKeyword,
  objectKeywords,
];
