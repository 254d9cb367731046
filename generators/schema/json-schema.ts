import {
  type Catalogue,
  type EventVersion,
  eventDescription,
  type Field,
  type FieldType,
  isOpenEvent,
  type Shape,
} from '../model.js';
import { generatedNote } from './generated-note.js';

// The JSON Schema of the model's events and shapes: what every emitter, the diff's readers, the
// sources and the schema registry share. It reads the model only; the emitters write it out.

/** JSON Schema dialect of every schema eventry emits. */
const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Extension keywords eventry puts in the schemas of its documents (OpenAPI and AsyncAPI allow `x-`
 * extensions); validators must register them as annotations. Shipped schema files leave them out.
 */
export const EXTENSION_KEYWORDS = [
  'x-event-type',
  'x-event-version',
  'x-group',
  'x-partial',
  'x-deprecated',
  'x-classification',
] as const;

/** How schemas refer to named shapes: `#/$defs/Name` in a standalone schema, components in OpenAPI. */
export type ShapeRef = (name: string) => string;

/** Options of the schema builders. */
export interface SchemaOptions {
  /** How to refer to a named shape. */
  ref: ShapeRef;
  /**
   * `closed` (default): the producers' contract, undocumented fields rejected.
   * `open`: the consumers' tolerant reading, undocumented fields accepted at every depth.
   */
  mode?: 'closed' | 'open';
  /** Leave annotations out (titles, descriptions): the schema then holds only what validation reads. */
  bare?: boolean;
  /** Standard keywords only (no `x-` annotation on a field): a default strict ajv compiles it. */
  standard?: boolean;
}

/** The schema of a field type. Optional fields are never nullable: the platform omits them. */
export function typeSchema(type: FieldType, options: SchemaOptions): Record<string, unknown> {
  switch (type.kind) {
    case 'shape':
      return { $ref: options.ref(type.name) };
    case 'array':
      return { type: 'array', items: typeSchema(type.items, options) };
    case 'object':
      return { type: 'object' };
    default:
      return {
        type: type.kind,
        ...(type.format ? { format: type.format } : {}),
        ...(type.enum ? { enum: [...type.enum] } : {}),
      };
  }
}

/** The object schema of a field list; closed unless open mode or `open` (a partial event). */
function objectSchema(fields: Field[], options: SchemaOptions, open = false): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of fields) {
    // Defined, not assigned: a field called `__proto__` is a key, not the object's prototype.
    Object.defineProperty(properties, field.name, {
      value: {
        ...(field.description && !options.bare ? { description: field.description } : {}),
        ...(field.classification && !options.bare && !options.standard
          ? { 'x-classification': field.classification }
          : {}),
        ...typeSchema(field.type, options),
      },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(open || options.mode === 'open' ? {} : { additionalProperties: false }),
  };
}

/** A named shape's schema. */
export function shapeSchema(shape: Shape, options: SchemaOptions): Record<string, unknown> {
  if (options.bare) return objectSchema(shape.fields, options);
  return {
    title: shape.name,
    ...(shape.description ? { description: shape.description } : {}),
    ...objectSchema(shape.fields, options),
  };
}

/** An event version's schema (without `$defs`), carrying the platform's identification. */
export function eventSchema(event: EventVersion, options: SchemaOptions): Record<string, unknown> {
  return {
    title: event.title,
    description: eventDescription(event),
    'x-event-type': event.type,
    'x-event-version': event.version,
    'x-group': event.group,
    ...(event.partial ? { 'x-partial': event.partial } : {}),
    ...(event.deprecated
      ? {
          deprecated: true,
          'x-deprecated': {
            since: event.deprecated.since,
            ...(event.deprecated.replacedBy ? { replacedBy: event.deprecated.replacedBy } : {}),
            ...(event.deprecated.note ? { note: event.deprecated.note } : {}),
          },
        }
      : {}),
    ...objectSchema(event.fields, options, isOpenEvent(event)),
  };
}

/** Named shapes a field list needs, transitively, sorted by name. */
export function shapesUsedBy(model: Catalogue, fields: Field[]): string[] {
  const found = new Set<string>();
  const visitType = (type: FieldType): void => {
    if (type.kind === 'array') visitType(type.items);
    else if (type.kind === 'shape' && !found.has(type.name)) {
      found.add(type.name);
      for (const field of model.shapes[type.name]!.fields) visitType(field.type);
    }
  };
  for (const field of fields) visitType(field.type);
  return [...found].sort();
}

/** The `$defs` of an event's standalone schema: each named shape it uses, by name. */
function shapeDefinitions(
  model: Catalogue,
  event: EventVersion,
  options: SchemaOptions,
): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (const name of shapesUsedBy(model, event.fields))
    defs[name] = shapeSchema(model.shapes[name]!, options);
  return defs;
}

/** The `$id` of every `validationSchema`: it is the same for all events, as their validators are. */
export const VALIDATION_SCHEMA_ID = 'event.json';

/**
 * What an event's validator checks and nothing else: its closed standalone schema without the
 * annotations (titles, descriptions, `$comment`, the `x-` keywords, `deprecated`) and under one `$id`
 * for every event. Two events with the same fields, types and shapes have the same validation schema,
 * so one compiled validator serves both; its JSON is that validator's identity in the build cache.
 */
export function validationSchema(model: Catalogue, key: string): Record<string, unknown> {
  const event = model.events[key]!;
  const options: SchemaOptions = { ref: (name) => `#/$defs/${name}`, mode: 'closed', bare: true };
  const defs = shapeDefinitions(model, event, options);
  return {
    $schema: SCHEMA_DIALECT,
    $id: VALIDATION_SCHEMA_ID,
    ...objectSchema(event.fields, options, isOpenEvent(event)),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

/** A self-contained JSON Schema 2020-12 document for one event: the shapes it uses under `$defs`. */
export function standaloneEventSchema(
  model: Catalogue,
  key: string,
  mode: 'closed' | 'open' = 'closed',
  standard = false,
): Record<string, unknown> {
  const event = model.events[key]!;
  const options: SchemaOptions = { ref: (name) => `#/$defs/${name}`, mode, standard };
  const defs = shapeDefinitions(model, event, options);
  return {
    $schema: SCHEMA_DIALECT,
    $id: `${key}.json`,
    $comment: generatedNote(`catalogue/${event.source.file}`),
    ...eventSchema(event, options),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

/** How a shipped schema compiles: what its `$comment` and the packages' READMEs tell users. */
export const COMPILE_NOTE =
  'Compiles in strict ajv as is: `const ajv = new Ajv2020(); addFormats(ajv); ajv.compile(schema)` (ajv/dist/2020, ajv-formats).';

/**
 * The JSON Schema file shipped for one event (`schemas/<key>.json` of the packages): the closed
 * standalone schema with standard keywords only, so a default strict `new Ajv2020()` compiles it (ajv
 * rejects unknown keywords such as `x-group`). The identity is in `$id` (the event key); whether the
 * event is partial shows in its open top level, a deprecation in `deprecated`, their texts in the
 * description (`readEventNotices` reads them back).
 */
export function shippedEventSchema(model: Catalogue, key: string): Record<string, unknown> {
  const schema = standaloneEventSchema(model, key, 'closed', true);
  for (const keyword of EXTENSION_KEYWORDS) delete schema[keyword];
  schema.$comment = `${String(schema.$comment)} ${COMPILE_NOTE}`;
  return schema;
}
