import { type Catalogue, groupPackageName } from '../model.js';
import { catalogueDigest } from '../model-digest.js';
import { type ComponentEntry, componentSchemas } from '../schema/components.js';
import { documentFiles } from './common/document-files.js';
import { type Emitter, generatedNote } from './context.js';

/** The OpenAPI 3.1 document of the whole catalogue (payload schemas only: events have no paths). */
export function buildOpenApi(model: Catalogue, entry?: ComponentEntry): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: model.config.title,
      version: model.config.version,
      ...(model.config.description ? { description: model.config.description } : {}),
      'x-generated-by': generatedNote('catalogue/'),
      'x-catalogue-hash': catalogueDigest(model),
    },
    tags: model.groups.map((group) => ({
      name: group.slug,
      description: group.title,
      'x-npm-package': groupPackageName(model, group),
    })),
    paths: {},
    components: { schemas: componentSchemas(model, entry) },
  };
}

/** Emits `catalogue/openapi.json` and its YAML copy. */
export const emitOpenApi: Emitter = (model) => documentFiles('catalogue/openapi', buildOpenApi(model));
