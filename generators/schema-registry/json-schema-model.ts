import type { Catalogue } from '../model.js';
import { readOpenApiCatalogue } from '../sources/openapi.js';

type Json = Record<string, unknown>;

/** What the candidate is checked as: the subject's event identity, which the candidate may omit. */
export interface CandidateIdentity {
  key: string;
  type: string;
  version: string;
  group: string;
}

const REF = '#/components/schemas/';

/**
 * Loads a JSON Schema document (a candidate sent to `/compatibility`, or a version the registry holds)
 * into a one-event catalogue of the model, so the diff engine can compare it. It reuses the OpenAPI
 * reverse loader: the document is rewritten as an OpenAPI document whose components are its `$defs`
 * (refs `#/$defs/X` and `#/definitions/X` re-pointed), inline nested objects hoisted into named
 * components, and the event identity (`x-event-type`, ...) taken from the subject when absent.
 * The top level's content model follows `additionalProperties` (open unless it is `false`). A schema
 * the model cannot express (a nested object with listed properties left open, a remote `$ref`, a
 * type list) is refused with a message, never read approximately.
 */
export function catalogueFromJsonSchema(
  text: string,
  identity: CandidateIdentity,
): { ok: true; catalogue: Catalogue } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `the schema is not JSON (${(error as Error).message}).` };
  }
  if (!isObject(parsed)) return { ok: false, error: 'the schema is not a JSON object.' };
  if (parsed.type !== 'object')
    return { ok: false, error: 'the top level must be `"type": "object"` (an event payload).' };
  const components: Json = Object.create(null);
  const errors: string[] = [];
  const defs = { ...asObject(parsed.definitions), ...asObject(parsed.$defs) };
  const rewrite = (schema: unknown, where: string): unknown => {
    if (!isObject(schema)) return schema;
    const out: Json = {};
    for (const [name, value] of Object.entries(schema)) {
      if (name === '$ref') {
        const match = typeof value === 'string' ? /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(value) : null;
        if (!match)
          errors.push(`${where}: \`$ref\` ${JSON.stringify(value)} is not a local #/$defs/<name> reference.`);
        else out.$ref = `${REF}${decodeURIComponent(match[1]!)}`;
      } else if (name === 'properties' && isObject(value)) {
        const properties: Json = {};
        for (const [field, property] of Object.entries(value)) {
          properties[field] = hoist(rewrite(property, `${where}.${field}`), `${where}.${field}`);
        }
        out.properties = properties;
      } else if (name === 'items') {
        out.items = hoist(rewrite(value, `${where}[]`), `${where}[]`);
      } else {
        out[name] = value;
      }
    }
    if (Array.isArray(out.type))
      errors.push(`${where}: a list of types (${JSON.stringify(out.type)}) has no catalogue notation.`);
    return out;
  };
  // A nested object with its own properties becomes a named shape (the model names every nested shape).
  const hoist = (schema: unknown, where: string): unknown => {
    if (!isObject(schema) || schema.type !== 'object' || schema.properties === undefined) return schema;
    if (schema.additionalProperties !== false) {
      errors.push(
        `${where}: a nested object with listed properties must be closed (\`"additionalProperties": false\`), as eventry emits them.`,
      );
    }
    const name = `inline ${where}`;
    components[name] = schema;
    return { $ref: `${REF}${name}` };
  };
  for (const [name, def] of Object.entries(defs)) components[name] = rewrite(def, name);
  const top = rewrite(parsed, identity.key) as Json;
  delete top.$defs;
  delete top.definitions;
  top['x-event-type'] ??= identity.type;
  top['x-event-version'] ??= identity.version;
  top['x-group'] ??= identity.group;
  if (top.additionalProperties === false) delete top['x-partial'];
  else if (typeof top['x-partial'] !== 'string')
    top['x-partial'] = 'Open content model (no additionalProperties: false).';
  components[identity.key] = top;
  if (errors.length > 0) return { ok: false, error: errors.join(' ') };
  const document = {
    openapi: '3.1.0',
    info: { title: 'candidate', version: '0.0.0' },
    tags: [{ name: top['x-group'], 'x-npm-package': '@registry/candidate' }],
    components: { schemas: components },
  };
  const loaded = readOpenApiCatalogue(JSON.stringify(document), 'candidate.json');
  if (!loaded.ok) return { ok: false, error: loaded.problems.map((problem) => problem.message).join(' ') };
  if (!loaded.catalogue.events[identity.key]) {
    return {
      ok: false,
      error: `the schema is for event ${String(top['x-event-type'])}, not ${identity.key}.`,
    };
  }
  return loaded;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asObject(value: unknown): Json {
  return isObject(value) ? value : {};
}
