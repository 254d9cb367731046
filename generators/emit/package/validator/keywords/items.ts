import { _ } from 'ajv/dist/compile/codegen/index.js';
import type { KeywordContext, KeywordDefinition } from '../keyword.js';
import { indexPath } from '../paths.js';

/** `items` (of an array): each item checked against the one schema, in a loop over the indexes. */
export const itemsKeyword: KeywordDefinition = {
  keyword: 'items',
  of: 'type',
  applies: (node) => node.items !== undefined,
  code({ gen, node, data, path, writer }: KeywordContext): void {
    const items = node.items!;
    const length = gen.const('len', _`${data}.length`);
    gen.forRange('i', 0, length, (i) => {
      const item = gen.let('data', _`${data}[${i}]`);
      writer.value(items, item, indexPath(path, i), data);
    });
  },
};
