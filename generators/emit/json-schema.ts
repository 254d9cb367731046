import type { Catalogue } from '../model.js';
import { shippedEventSchema } from '../schema/json-schema.js';
import { jsonFile, type OutputFile } from './context.js';

/** Emits `catalogue/schemas/<key>.json` for every event. */
export function emitJsonSchemas(model: Catalogue): OutputFile[] {
  return Object.keys(model.events)
    .sort()
    .map((key) => jsonFile(`catalogue/schemas/${key}.json`, shippedEventSchema(model, key)));
}
