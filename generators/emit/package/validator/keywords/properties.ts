import { _ } from 'ajv/dist/compile/codegen/index.js';
import { keyPath } from '../paths.js';
import type { SchemaNode } from '../schema-tree.js';
import type { ObjectContext } from './object-context.js';

/**
 * `properties`: each field with a value checked against its schema, in the schema's order. The checks a
 * wide object's quick pass covers (`covered`, and its plain fields' own) wait to be written in blocks
 * that run only when the pass stopped; the other fields are checked in between, in ajv's order.
 */
export function writeProperties(obj: ObjectContext, covered: () => void): void {
  const { gen, rules, locals, plain, quick, data, path, writer } = obj;
  let pending: (() => void)[] = [covered];
  const flush = (): void => {
    const checks = pending;
    pending = [];
    if (checks.length === 0) return;
    const write = (): void => {
      for (const check of checks) check();
    };
    if (quick === undefined) write();
    else gen.if(quick.failed, write);
  };
  const field = (name: string, schema: SchemaNode): void => {
    gen.if(_`${locals.get(name)!} !== undefined`, () =>
      writer.value(schema, locals.get(name)!, keyPath(path, name), data),
    );
  };
  let proto: SchemaNode | undefined;
  for (const [name, schema] of rules.properties) {
    // ajv's `properties` skips a field called `__proto__`, which `patternProperties` checks last.
    if (name === '__proto__') {
      proto = schema;
      continue;
    }
    if (plain.has(name)) {
      pending.push(() => field(name, schema));
      continue;
    }
    flush();
    field(name, schema);
  }
  flush();
  if (proto !== undefined) writeProtoField(obj, proto);
}

/** A field called `__proto__`: found by a walk over the keys, as ajv's `patternProperties` finds it. */
function writeProtoField({ gen, data, path, writer }: ObjectContext, schema: SchemaNode): void {
  gen.forIn('key', data, (key) =>
    gen.if(_`${key} === ${'__proto__'}`, () => {
      const value = gen.let('data', _`${data}[${key}]`);
      writer.value(schema, value, keyPath(path, '__proto__'), data);
    }),
  );
}
