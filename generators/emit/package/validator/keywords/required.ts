import { _ } from 'ajv/dist/compile/codegen/index.js';
import { MISSING, OPTIONS, RUN } from '../names.js';
import { missingKey, pathParts } from '../paths.js';
import type { ObjectKeywordDefinition } from './object-context.js';

/** `required`: each required field's local tested, a missing one handed to the run time's `missing`. */
export const requiredKeyword: ObjectKeywordDefinition = {
  keyword: 'required',
  applies: (rules) => rules.required.length > 0,
  code({ gen, rules, locals, path, writer }): void {
    for (const name of rules.required) {
      gen.if(_`${locals.get(name)!} === undefined`, () => {
        const { prefix, suffix } = pathParts(path, `.${missingKey(name)}`);
        const site = writer.place([0, suffix]);
        gen.assign(RUN, _`${MISSING}(${RUN}, ${OPTIONS}, ${site}, ${prefix})`, true);
      });
    }
  },
};
