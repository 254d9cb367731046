import { _, not, or, stringify } from 'ajv/dist/compile/codegen/index.js';
import { reportError } from '../errors.js';
import type { KeywordContext, KeywordDefinition } from '../keyword.js';

/** Enums from this many values on are checked by a loop (shorter ones by inline comparisons, faster). */
const LOOP_ENUM = 32;

/** `enum` of strings and numbers: its values declared once for every enum with the same values. */
export const enumKeyword: KeywordDefinition = {
  keyword: 'enum',
  of: 'any',
  applies: (node) => node.enum !== undefined,
  code(cxt: KeywordContext): void {
    const { gen, data, path, writer } = cxt;
    const values = cxt.node.enum!;
    const allowed = writer.declare('enum', JSON.stringify(values), () => stringify(values));
    if (values.length < LOOP_ENUM) {
      const match = values.length === 0 ? _`false` : or(...values.map((value) => _`${data} === ${value}`));
      gen.if(not(match), () => reportError(cxt, path, 'enum', _`{allowedValues: ${allowed}}`, data));
      return;
    }
    // As ajv's deep equality compares strings and numbers: NaN equals NaN.
    const valid = gen.let('valid', false);
    gen.forOf('v', allowed, (v) =>
      gen.if(_`${v} === ${data} || (${v} !== ${v} && ${data} !== ${data})`, () =>
        gen.assign(valid, true).break(),
      ),
    );
    gen.if(not(valid), () => reportError(cxt, path, 'enum', _`{allowedValues: ${allowed}}`, data));
  },
};
