import type { Catalogue } from '../model.js';
import { shippedEventSchema } from '../schema/json-schema.js';
import { jsonFile, type OutputFile } from './context.js';

/** Emits `catalogue/schemas/<key>.json` for every event. */
export function emitJsonSchemas(model: Catalogue): OutputFile[] {
  return emitJsonSchemasOf(model, Object.keys(model.events));
}

/** Where the JSON Schema of event `key` goes. */
export function jsonSchemaPath(key: string): string {
  return `catalogue/schemas/${key}.json`;
}

/** The `catalogue/schemas/<key>.json` files of the events `keys` only (a build keeps the others). */
export function emitJsonSchemasOf(model: Catalogue, keys: readonly string[]): OutputFile[] {
  return [...keys].sort().map((key) => jsonFile(jsonSchemaPath(key), shippedEventSchema(model, key)));
}
