import { _, getProperty, type Name } from 'ajv/dist/compile/codegen/index.js';
import type { KeywordContext, KeywordDefinition } from '../keyword.js';
import { TOLERANT } from '../names.js';
import { plainFields, writeQuickCheck } from '../quick-check.js';
import type { ObjectRules, ValueNode } from '../schema-tree.js';
import { additionalKeyword } from './additional.js';
import type { ObjectContext, ObjectKeywordDefinition } from './object-context.js';
import { writeProperties } from './properties.js';
import { requiredKeyword } from './required.js';

/**
 * The object keywords the quick pass covers, in ajv's order: written in the block that runs when the
 * pass stopped, before the first field of another kind (see `writeProperties`).
 */
const COVERED: ObjectKeywordDefinition[] = [requiredKeyword, additionalKeyword];

/**
 * `properties`, `required` and `additionalProperties: false`, as one family (they share the fields'
 * locals): own properties only, each field read once into a local, a wide object's quick pass first
 * (docs/decisions/0069), then the covered keywords and the fields' checks in ajv's order.
 */
export const objectKeywords: KeywordDefinition = {
  keyword: 'properties, required, additionalProperties',
  of: 'type',
  applies: (node: ValueNode) => node.object !== undefined,
  code(cxt: KeywordContext): void {
    const rules = cxt.node.object!;
    readOwn(cxt, rules);
    const fields = plainFields(rules, (node) => cxt.writer.isPlain(node));
    const plain = new Set(fields?.map(([name]) => name));
    const locals = readFields(cxt, rules, plain);
    const quick = fields && writeQuickCheck(cxt.gen, rules, fields, cxt.data, TOLERANT, locals);
    const obj: ObjectContext = { ...cxt, rules, locals, plain, quick };
    writeProperties(obj, () => {
      quick?.restore();
      for (const keyword of COVERED) if (keyword.applies(rules)) keyword.code(obj);
    });
  },
};

/**
 * Own properties only: an object whose prototype is not `Object.prototype` (or, when a field is named
 * like one of its members, not null) is read through a copy of its own properties.
 */
function readOwn({ gen, data, writer }: KeywordContext, rules: ObjectRules): void {
  if (rules.own === 'none') return;
  const foreign =
    rules.own === 'members'
      ? _`Object.getPrototypeOf(${data}) !== null`
      : _`${data}.__proto__ !== Object.prototype`;
  gen.if(foreign, () => gen.assign(data, _`${ownCopy(writer)}(${data})`));
}

/**
 * The function that copies an object's own fields into one without a prototype, declared once (out of
 * the validator, whose code V8 then compiles into its caller when it is small).
 */
function ownCopy(writer: KeywordContext['writer']): Name {
  return writer.declare(
    'own',
    '',
    () => _`(data) => Object.defineProperties(Object.create(null), Object.getOwnPropertyDescriptors(data))`,
  );
}

/**
 * Each field read once, into a local: one hash lookup per field on a payload in dictionary mode, and a
 * field's getter runs once. A wide object's plain fields are read by its quick pass.
 */
function readFields(
  { gen, data }: KeywordContext,
  rules: ObjectRules,
  plain: Set<string>,
): Map<string, Name> {
  const locals = new Map<string, Name>();
  for (const name of [...rules.properties.map(([field]) => field), ...rules.required]) {
    if (locals.has(name)) continue;
    const read = plain.has(name) ? undefined : _`${data}${getProperty(name)}`;
    locals.set(name, gen.let('data', read));
  }
  return locals;
}
