import { _ } from 'ajv/dist/compile/codegen/index.js';
import { requiredItem } from '../../../../runtime/error-items.js';
import { listItem, literalItem } from '../errors.js';
import { MISSING, OPTIONS, RUN } from '../names.js';
import { fixedAttr, missingKey, pathParts } from '../paths.js';
import type { ObjectKeywordDefinition } from './object-context.js';

/**
 * `required`: each required field's local tested; a missing one's item a literal where its path is
 * known as the code is written (the run time's own texts, `requiredItem`), else the run time's `missing`.
 */
export const requiredKeyword: ObjectKeywordDefinition = {
  keyword: 'required',
  applies: (rules) => rules.required.length > 0,
  code({ gen, rules, locals, path, writer }): void {
    for (const name of rules.required) {
      gen.if(_`${locals.get(name)!} === undefined`, () => {
        const more = `.${missingKey(name)}`;
        const { prefix, suffix } = pathParts(path, more);
        const site = writer.place([0, suffix]);
        const attr = fixedAttr(path, more);
        if (attr === undefined) gen.assign(RUN, _`${MISSING}(${RUN}, ${OPTIONS}, ${site}, ${prefix})`);
        else listItem({ gen }, literalItem(requiredItem(attr)));
      });
    }
  },
};
