import type { Catalogue } from '../model.js';
import { documentFiles, generatedNote, type OutputFile } from './context.js';
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

/** The OpenAPI 3.1 document of the whole catalogue (payload schemas only: events have no paths). */
export function buildOpenApi(model: Catalogue): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: model.config.title,
      version: model.config.version,
      ...(model.config.description ? { description: model.config.description } : {}),
      'x-generated-by': generatedNote('catalogue/'),
      'x-catalogue-hash': model.hash,
    },
    tags: model.groups.map((group) => ({
      name: group.slug,
      description: group.title,
      'x-npm-package': `${model.config.scope}/${group.slug}`,
    })),
    paths: {},
    components: { schemas: componentSchemas(model) },
  };
}

/** Emits `catalogue/openapi.json` and its YAML copy. */
export function emitOpenApi(model: Catalogue): OutputFile[] {
  return documentFiles('catalogue/openapi', buildOpenApi(model));
}
