import { readOpenApiCatalogue } from './from-openapi.js';
import type { LoadResult } from './index.js';

type Json = Record<string, unknown>;

/**
 * Reads a published group package back into the model, so `eventry diff npm:<pkg>@<version> HEAD` can
 * compare what consumers of a release have with the working catalogue. The package ships one
 * self-contained JSON Schema per event (`schemas/<event key>.json`, named shapes under `$defs`); they
 * are gathered into one OpenAPI-shaped document and read by the OpenAPI reader, so there is exactly
 * one inverse of the emitters to keep right. `files` are the package's files by path (from its tarball).
 */
export function readPackageCatalogue(files: ReadonlyMap<string, string>, label: string): LoadResult {
  const problem = (message: string, file = 'package.json'): LoadResult => ({
    ok: false,
    problems: [{ code: 'invalid-value', message, file: `${label}/${file}`, line: 1, column: 1 }],
  });
  let manifest: Json;
  try {
    manifest = JSON.parse(files.get('package.json') ?? '') as Json;
  } catch {
    return problem('The package has no readable package.json.');
  }
  const name = typeof manifest.name === 'string' ? manifest.name : '';
  const slug = name.split('/')[1];
  if (!name.startsWith('@') || !slug) return problem(`\`${name}\` is not a scoped group package name.`);

  // Keyed by event and shape names from the package: `__proto__` must stay a plain key.
  const components: Json = Object.create(null);
  const schemaFiles = [...files.keys()].filter((path) => /^schemas\/[^/]+\.json$/.test(path)).sort();
  if (schemaFiles.length === 0) {
    return problem(
      'The package ships no `schemas/<event key>.json`: it was not built by an eventry that can be diffed.',
    );
  }
  for (const path of schemaFiles) {
    let schema: Json;
    try {
      schema = JSON.parse(files.get(path)!) as Json;
    } catch {
      return problem('Not valid JSON.', path);
    }
    const key = path.slice('schemas/'.length, -'.json'.length);
    const { $schema: _dialect, $id: _id, $comment: _comment, $defs, ...event } = schema;
    components[key] = toComponentRefs(event);
    for (const [shape, definition] of Object.entries(($defs ?? {}) as Json))
      components[shape] = toComponentRefs(definition);
  }

  const eventry = (manifest.eventry ?? {}) as Json;
  const document = {
    openapi: '3.1.0',
    info: {
      title: typeof manifest.description === 'string' ? manifest.description : name,
      version: typeof manifest.version === 'string' ? manifest.version : '0.0.0',
      ...(typeof eventry.sourceHash === 'string' ? { 'x-catalogue-hash': eventry.sourceHash } : {}),
    },
    tags: [{ name: slug, description: groupTitle(eventry, slug), 'x-npm-package': name }],
    components: { schemas: components },
  };
  const result = readOpenApiCatalogue(JSON.stringify(document, null, 2), label);
  if (!result.ok) return result;
  // Locations inside the synthetic document mean nothing to a reader: point at the package's files.
  const catalogue = result.catalogue;
  for (const event of Object.values(catalogue.events)) {
    const location = { file: `${label}/schemas/${event.key}.json`, line: 1, column: 1 };
    event.source = location;
    for (const field of event.fields) field.source = location;
  }
  for (const shape of Object.values(catalogue.shapes)) {
    const location = { file: `${label}/schemas`, line: 1, column: 1 };
    shape.source = location;
    for (const field of shape.fields) field.source = location;
  }
  for (const group of catalogue.groups) group.source = { file: `${label}/package.json`, line: 1, column: 1 };
  return { ok: true, catalogue };
}

/** The group's title, as the package records it (`eventry.group.title`), else its slug. */
function groupTitle(eventry: Json, slug: string): string {
  const group = eventry.group;
  if (group && typeof group === 'object' && typeof (group as Json).title === 'string')
    return (group as Json).title as string;
  return slug;
}

/** `#/$defs/Name` (standalone schema) to `#/components/schemas/Name` (the OpenAPI reader's form). */
function toComponentRefs(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
}
