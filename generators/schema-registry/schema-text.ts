import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Catalogue } from '../model.js';
import { standaloneEventSchema } from '../schema/json-schema.js';

/**
 * The schema text a registry holds for an event: its self-contained JSON Schema (the producers' closed
 * contract, as `packages/catalogue/schemas/<key>.json`), without the `$comment` that names the source
 * file (moving an event to another file is not a new schema) and without `$id`: every version of an
 * event would carry the same `$id`, and a client that compiles two versions with one ajv is refused the
 * second ("schema with key or id ... already exists"). In canonical form.
 */
export function servedSchemaText(catalogue: Catalogue, key: string): string {
  const { $comment: _note, $id: _id, ...schema } = standaloneEventSchema(catalogue, key);
  return canonicalJson(schema);
}

/**
 * The text `serve` gave the same schema before it dropped `$id` (eventry up to the `$id` change): the
 * served text with `"$id": "<key>.json"`. Ids handed out for it stay in Kafka topics, so they keep
 * resolving to it. Undefined when the text is not a JSON object.
 */
export function firstGenerationText(key: string, text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  return canonicalJson({ ...parsed, $id: `${key}.json` });
}

/**
 * Compact JSON with object keys sorted at every depth (array order kept): two schemas that differ only
 * in key order or white space have the same text, so a look-up by schema text finds them.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/** The canonical text of a schema a client sent, or undefined when it is not a JSON object. */
export function canonicalCandidate(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { $comment: _note, ...schema } = parsed as Record<string, unknown>;
  return canonicalJson(schema);
}

let fingerprint: string | undefined;

/**
 * sha256 of the code that turns a catalogue into served schema texts. Cached release schemas are keyed
 * by it, so a cache written by other generator code is never reused (it would give other texts, so
 * other ids, than a fresh load).
 */
export function schemaTextFingerprint(): string {
  if (fingerprint === undefined) {
    const hash = createHash('sha256');
    // `.js` when compiled, `.ts` when the sources run directly (tests).
    const ext = extname(fileURLToPath(import.meta.url));
    const modules = ['../model', '../schema/json-schema', '../schema/generated-note', './schema-text'];
    // The data contracts cached beside the texts.
    modules.push('./data-contract', '../cel/over-message');
    // The type subjects' contracts: migration rules compiled to JSONata (issue 46).
    modules.push('./type-contract', '../migrate/jsonata', '../migrate/jsonata-cel');
    for (const module of modules) {
      hash.update(readFileSync(fileURLToPath(new URL(`${module}${ext}`, import.meta.url))));
    }
    fingerprint = hash.digest('hex');
  }
  return fingerprint;
}

/** How deep a client's schema may nest: eventry's own are a few levels; the walk over it is recursive. */
export const MAX_SCHEMA_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `limit` (measured without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
