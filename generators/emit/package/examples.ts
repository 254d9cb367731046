import type { Catalogue, Field, FieldType } from '../../model.js';

/** Which example: required fields only, or every field. */
export type ExampleKind = 'minimal' | 'full';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A deterministic example payload of an event: `minimal` has the required fields only, `full` every
 * field; arrays hold one item, values follow the field's type, format and enum. Valid in strict mode
 * by construction (the package tests prove it with the generated validators).
 */
export function exampleFor(model: Catalogue, key: string, kind: ExampleKind): { [key: string]: Json } {
  return exampleObject(model, model.events[key]!.fields, kind, []);
}

function exampleObject(
  model: Catalogue,
  fields: Field[],
  kind: ExampleKind,
  shapes: string[],
): { [key: string]: Json } {
  // Keyed by field names: a field called `__proto__` must be a key, not the prototype.
  const value: { [key: string]: Json } = Object.create(null);
  for (const field of fields) {
    if (!field.required && kind === 'minimal') continue;
    // A shape that (indirectly) contains itself can only be optional there: stop the recursion.
    if (!field.required && refersTo(field.type, shapes)) continue;
    value[field.name] = exampleValue(model, field.type, field.name, kind, shapes);
  }
  return value;
}

function exampleValue(
  model: Catalogue,
  type: FieldType,
  name: string,
  kind: ExampleKind,
  shapes: string[],
): Json {
  switch (type.kind) {
    case 'shape':
      return exampleObject(model, model.shapes[type.name]!.fields, kind, [...shapes, type.name]);
    case 'array':
      return [exampleValue(model, type.items, name, kind, shapes)];
    case 'object':
      return kind === 'minimal' ? {} : { example: name };
    case 'boolean':
      return true;
    case 'integer':
      return type.enum ? type.enum[0]! : 1;
    case 'number':
      return type.enum ? type.enum[0]! : 1.5;
    default:
      if (type.enum) return type.enum[0]!;
      if (type.format === 'date') return '2024-01-31';
      if (type.format === 'date-time') return '2024-01-31T12:00:00Z';
      return `example ${name}`;
  }
}

function refersTo(type: FieldType, shapes: string[]): boolean {
  if (type.kind === 'array') return refersTo(type.items, shapes);
  return type.kind === 'shape' && shapes.includes(type.name);
}
