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
  const parsed = parseCandidate(text);
  if (!parsed.ok) return parsed;
  const rewriter = new CandidateRewriter();
  const defs = { ...asObject(parsed.schema.definitions), ...asObject(parsed.schema.$defs) };
  for (const [name, def] of Object.entries(defs)) rewriter.components[name] = rewriter.rewrite(def, name);
  const top = candidateTop(rewriter, parsed.schema, identity);
  rewriter.components[identity.key] = top;
  if (rewriter.errors.length > 0) return { ok: false, error: rewriter.errors.join(' ') };
  const document = {
    openapi: '3.1.0',
    info: { title: 'candidate', version: '0.0.0' },
    tags: [{ name: top['x-group'], 'x-npm-package': '@registry/candidate' }],
    components: { schemas: rewriter.components },
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

/** The candidate's JSON, which must be an object schema (an event payload). */
function parseCandidate(text: string): { ok: true; schema: Json } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `the schema is not JSON (${(error as Error).message}).` };
  }
  if (!isObject(parsed)) return { ok: false, error: 'the schema is not a JSON object.' };
  if (parsed.type !== 'object')
    return { ok: false, error: 'the top level must be `"type": "object"` (an event payload).' };
  return { ok: true, schema: parsed };
}

/**
 * The event's own component: the top level rewritten, without its `$defs`, with the subject's identity
 * where the schema has none and its content model (open unless `additionalProperties` is `false`).
 */
function candidateTop(rewriter: CandidateRewriter, parsed: Json, identity: CandidateIdentity): Json {
  const top = rewriter.rewrite(parsed, identity.key) as Json;
  delete top.$defs;
  delete top.definitions;
  top['x-event-type'] ??= identity.type;
  top['x-event-version'] ??= identity.version;
  top['x-group'] ??= identity.group;
  if (top.additionalProperties === false) delete top['x-partial'];
  else if (typeof top['x-partial'] !== 'string')
    top['x-partial'] = 'Open content model (no additionalProperties: false).';
  return top;
}

/** How a keyword is rewritten into `out`; a keyword without one is copied as it is. */
type Rewrite = (out: Json, value: unknown, where: string, rewriter: CandidateRewriter) => void;

/** The keywords the rewrite changes: refs re-pointed, nested objects of fields and items hoisted. */
const REWRITES = new Map<string, Rewrite>([
  [
    '$ref',
    (out, value, where, rewriter) => {
      const match = typeof value === 'string' ? /^#\/(?:\$defs|definitions)\/([^/]+)$/.exec(value) : null;
      if (!match)
        rewriter.errors.push(
          `${where}: \`$ref\` ${JSON.stringify(value)} is not a local #/$defs/<name> reference.`,
        );
      else out.$ref = `${REF}${decodeURIComponent(match[1]!)}`;
    },
  ],
  [
    'properties',
    (out, value, where, rewriter) => {
      if (!isObject(value)) {
        out.properties = value;
        return;
      }
      const properties: Json = {};
      for (const [field, property] of Object.entries(value)) {
        properties[field] = rewriter.hoist(
          rewriter.rewrite(property, `${where}.${field}`),
          `${where}.${field}`,
        );
      }
      out.properties = properties;
    },
  ],
  [
    'items',
    (out, value, where, rewriter) => {
      out.items = rewriter.hoist(rewriter.rewrite(value, `${where}[]`), `${where}[]`);
    },
  ],
]);

/** Rewrites the candidate's schemas as OpenAPI components, collecting what the model cannot express. */
class CandidateRewriter {
  readonly components: Json = Object.create(null);
  readonly errors: string[] = [];

  rewrite(schema: unknown, where: string): unknown {
    if (!isObject(schema)) return schema;
    const out: Json = {};
    for (const [name, value] of Object.entries(schema)) {
      const rewrite = REWRITES.get(name);
      if (rewrite) rewrite(out, value, where, this);
      else out[name] = value;
    }
    if (Array.isArray(out.type))
      this.errors.push(`${where}: a list of types (${JSON.stringify(out.type)}) has no catalogue notation.`);
    return out;
  }

  /** A nested object with its own properties becomes a named shape (the model names every nested shape). */
  hoist(schema: unknown, where: string): unknown {
    if (!isObject(schema) || schema.type !== 'object' || schema.properties === undefined) return schema;
    if (schema.additionalProperties !== false) {
      this.errors.push(
        `${where}: a nested object with listed properties must be closed (\`"additionalProperties": false\`), as eventry emits them.`,
      );
    }
    const name = `inline ${where}`;
    this.components[name] = schema;
    return { $ref: `${REF}${name}` };
  }
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asObject(value: unknown): Json {
  return isObject(value) ? value : {};
}
