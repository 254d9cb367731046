import { _, type Code, type CodeGen, getProperty, type Name } from 'ajv/dist/compile/codegen/index.js';
import { isType } from './keywords/type.js';
import type { ObjectRules, SchemaNode, ValueNode, ValueType } from './schema-tree.js';

/** Objects with more documented fields than this are wide: see `writeQuickCheck` and `keywords/additional.ts`. */
export const WIDE_OBJECT = 8;

/** The quick pass over a wide object's plain fields, as written by `writeQuickCheck`. */
export interface QuickCheck {
  /** Holds when the pass stopped at something to report: the object's full checks run then. */
  failed: Code;
  /** How many optional plain fields the pass found present (strict mode only), for the key count. */
  count: Name | undefined;
  /** Sets the plain fields' locals for the full checks: the first thing they do. */
  restore(): void;
}

/** A stand-in for a field of this type that the quick pass found present and valid. */
const STAND_IN: Record<Exclude<ValueType, 'object'>, Code> = {
  string: _`""`,
  number: _`0`,
  integer: _`0`,
  boolean: _`false`,
  array: _`[]`,
};

/**
 * The fields of `rules` checked by their type alone (`isPlain`: no keyword applies to them), when there
 * are more than `WIDE_OBJECT` of them; none otherwise.
 */
export function plainFields(
  rules: ObjectRules,
  isPlain: (node: SchemaNode) => boolean,
): [string, ValueNode][] | undefined {
  const fields = rules.properties.filter(
    (field): field is [string, ValueNode] => field[0] !== '__proto__' && isPlain(field[1]),
  );
  return fields.length > WIDE_OBJECT ? fields : undefined;
}

/**
 * A wide object's first pass: one test per plain field, each read once into the same variable, in the
 * schema's order, stopping at the first that is missing or of the wrong type (then at the required
 * fields of other kinds, then, in strict mode, at the count of keys). A valid payload keeps no field's
 * value past its test, which is what makes the pass quicker than ajv's checks of the same fields.
 *
 * Only when it stops do the object's full checks run, in ajv's order, and they read no field twice:
 * `restore` gives the fields before the stop a stand-in (a value of their type if required, none if
 * optional: the full checks find nothing to report on either), the field it stopped at its value, and
 * reads the rest.
 */
export function writeQuickCheck(
  gen: CodeGen,
  rules: ObjectRules,
  fields: [string, ValueNode][],
  data: Name,
  tolerant: Name,
  locals: Map<string, Name>,
): QuickCheck {
  const required = new Set(rules.required);
  const plain = new Map(fields);
  const at = gen.let('at', -1);
  const value = gen.let('value');
  const count = rules.closed ? gen.let('count', 0) : undefined;

  const pass = (counting: boolean): void => {
    let first = true;
    const stop = (condition: Code, index: number): void => {
      if (first) gen.if(condition);
      else gen.elseIf(condition);
      first = false;
      gen.assign(at, index);
    };
    fields.forEach(([name, schema], index) => {
      const read = _`${value} = ${data}${getProperty(name)}`;
      const type = isType(schema.type, value);
      if (required.has(name)) stop(_`(${read}, !(${type}))`, index);
      else if (counting) stop(_`(${read}, (${type}) ? (${count}++, false) : ${value} !== undefined)`, index);
      else stop(_`(${read}, !(${type}) && ${value} !== undefined)`, index);
    });
    for (const name of required) {
      if (!plain.has(name)) stop(_`${locals.get(name)!} === undefined`, fields.length);
    }
    if (counting) {
      // Every required plain field is present here; the other fields' locals hold their values.
      const others = rules.properties
        .filter(([name]) => !plain.has(name))
        .map(([name]) => _`(${locals.get(name)!} !== undefined)`);
      const present = [_`${fields.filter(([name]) => required.has(name)).length}`, _`${count}`, ...others];
      stop(
        _`Object.keys(${data}).length !== ${present.reduce((sum, one) => _`${sum} + ${one}`)}`,
        fields.length,
      );
    }
    gen.endIf();
  };
  if (count === undefined) pass(false);
  else
    gen.if(
      _`${tolerant} === true`,
      () => pass(false),
      () => pass(true),
    );

  return {
    failed: _`${at} >= 0`,
    count,
    restore: () =>
      fields.forEach(([name, schema], index) => {
        const standIn = !required.has(name)
          ? _`undefined`
          : schema.type === 'object'
            ? data
            : STAND_IN[schema.type];
        gen.assign(
          locals.get(name)!,
          _`${at} < ${index} ? ${data}${getProperty(name)} : ${at} === ${index} ? ${value} : ${standIn}`,
        );
      }),
  };
}
