import { _, type Name, not, or } from 'ajv/dist/compile/codegen/index.js';
import { OPTIONS, RUN, TOLERANT, UNDOCUMENTED } from '../names.js';
import { pathParts } from '../paths.js';
import { WIDE_OBJECT } from '../quick-check.js';
import type { ObjectContext, ObjectKeywordDefinition } from './object-context.js';

/**
 * `additionalProperties: false` (not in tolerant mode), as comparisons of each key with the field names.
 * A wide object has no undocumented key when it has as many keys as documented fields with a value: one
 * count instead of comparing each key with every name; only otherwise are its keys walked, over that
 * same `Object.keys`.
 */
export const additionalKeyword: ObjectKeywordDefinition = {
  keyword: 'additionalProperties',
  applies: (rules) => rules.closed,
  code(obj): void {
    obj.gen.if(_`${TOLERANT} !== true`, () => closedObject(obj));
  },
};

function closedObject({ gen, rules, locals, data, path, writer, quick }: ObjectContext): void {
  const names = rules.properties.map(([name]) => name);
  const each = (key: Name): void => {
    const report = (): void => {
      const { prefix, suffix } = pathParts(path, '');
      const site = writer.place([1, suffix]);
      gen.assign(RUN, _`${UNDOCUMENTED}(${RUN}, ${OPTIONS}, ${site}, ${prefix}, ${key})`);
    };
    if (names.length === 0) report();
    else gen.if(not(or(...names.map((name) => _`${key} === ${name}`))), report);
  };
  if (names.length <= WIDE_OBJECT) {
    gen.forIn('key', data, each);
    return;
  }
  const keys = gen.const('keys', _`Object.keys(${data})`);
  // After a quick pass that stopped, an optional plain field before the stop has no local: the pass
  // counted those present (`quick.count`).
  const present = names.map((name) => _`(${locals.get(name)!} !== undefined)`);
  if (quick?.count !== undefined) present.unshift(_`${quick.count}`);
  gen.if(_`${keys}.length !== ${present.reduce((sum, one) => _`${sum} + ${one}`)}`, () =>
    gen.forOf('key', keys, each),
  );
}
