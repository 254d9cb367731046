import type { Catalogue } from '../model.js';
import { eventSchema, type SchemaOptions, shapeSchema } from './json-schema.js';

/** Where every named shape and event schema lives in the OpenAPI and AsyncAPI documents. */
export const componentRef = (name: string): string => `#/components/schemas/${name}`;

/**
 * `components.schemas` shared by the OpenAPI and AsyncAPI documents: one schema per event keyed
 * exactly by its `<event_type>-<version>`, one per named shape keyed by its name; events by key, then
 * shapes by name.
 */
export function componentSchemas(model: Catalogue): Record<string, unknown> {
  const options: SchemaOptions = { ref: componentRef };
  const schemas: Record<string, unknown> = {};
  for (const key of Object.keys(model.events).sort()) schemas[key] = eventSchema(model.events[key]!, options);
  for (const name of Object.keys(model.shapes).sort())
    schemas[name] = shapeSchema(model.shapes[name]!, options);
  return schemas;
}
