import type { Catalogue } from '../model.js';
import { eventSchema, type SchemaOptions, shapeSchema } from './json-schema.js';

/** Where every named shape and event schema lives in the OpenAPI and AsyncAPI documents. */
export const componentRef = (name: string): string => `#/components/schemas/${name}`;

/**
 * `components.schemas` shared by the OpenAPI and AsyncAPI documents: one schema per event keyed
 * exactly by its `<event_type>-<version>`, one per named shape keyed by its name; events by key, then
 * shapes by name.
 */
export function componentSchemas(model: Catalogue, entry: ComponentEntry = build): Record<string, unknown> {
  const options: SchemaOptions = { ref: componentRef };
  const schemas: Record<string, unknown> = {};
  // One builder per kind, shared by every entry: 10,000 entries are deferred, not 10,000 closures.
  const ofEvent = (key: string) => eventSchema(model.events[key]!, options);
  const ofShape = (name: string) => shapeSchema(model.shapes[name]!, options);
  for (const key of Object.keys(model.events).sort()) schemas[key] = entry('event', key, ofEvent);
  for (const name of Object.keys(model.shapes).sort()) schemas[name] = entry('shape', name, ofShape);
  return schemas;
}

/**
 * What a document holds for one event's or shape's entry, given how to build it from its name (reading
 * only that event or shape of the model): by default the value itself; the documents' emitters defer it.
 */
export type ComponentEntry = (
  kind: 'event' | 'shape',
  name: string,
  build: (name: string) => unknown,
) => unknown;

const build: ComponentEntry = (_kind, name, make) => make(name);
