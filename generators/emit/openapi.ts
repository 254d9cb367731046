import { type Catalogue, groupPackageName } from '../model.js';
import { componentSchemas } from '../schema/components.js';
import { documentFiles, generatedNote, type OutputFile } from './context.js';

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
      'x-npm-package': groupPackageName(model, group),
    })),
    paths: {},
    components: { schemas: componentSchemas(model) },
  };
}

/** Emits `catalogue/openapi.json` and its YAML copy. */
export function emitOpenApi(model: Catalogue): OutputFile[] {
  return documentFiles('catalogue/openapi', buildOpenApi(model));
}
