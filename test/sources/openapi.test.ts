import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { diffCatalogues } from '../../generators/diff/diff.js';
import { buildOpenApi } from '../../generators/emit/openapi.js';
import type { Catalogue, Field } from '../../generators/model.js';
import { catalogueDigest } from '../../generators/model-digest.js';
import { readOpenApiCatalogue } from '../../generators/sources/openapi.js';
import { fixturePath, loadValid, REPO } from '../helpers.js';

/** What the OpenAPI document keeps of a field: everything but where it was written and composed. */
const payload = (fields: Field[]) =>
  fields.map(({ name, type, required, description }) => ({ name, type, required, description }));

function readBack(model: Catalogue, path = 'packages/catalogue/openapi.json'): Catalogue {
  const document = buildOpenApi(model);
  const text = path.endsWith('.json') ? JSON.stringify(document, null, 2) : stringify(document);
  const result = readOpenApiCatalogue(text, path);
  if (!result.ok) throw new Error(JSON.stringify(result.problems, null, 2));
  return result.catalogue;
}

describe('readOpenApiCatalogue inverts buildOpenApi', () => {
  it.each([
    ['the seed catalogue', `${REPO}/catalogue`],
    ['the small fixture (same_as, extends, partial, deprecated, semver keys)', fixturePath('small')],
  ])('%s: same config, groups, shapes and payloads; the diff sees no change', (_name, dir) => {
    const model = loadValid(dir);
    const back = readBack(model);
    expect(back.config).toEqual(model.config);
    // The document carries what the catalogue says, not its source text's hash (comments do not count).
    expect(back.hash).toBe(catalogueDigest(model));
    expect(
      back.groups.map(({ slug, title, events }) => ({ slug, title, events: [...events].sort() })),
    ).toEqual(model.groups.map(({ slug, title, events }) => ({ slug, title, events: [...events].sort() })));
    expect(Object.keys(back.shapes).sort()).toEqual(Object.keys(model.shapes).sort());
    for (const [key, event] of Object.entries(model.events)) {
      const read = back.events[key]!;
      // Migrations between versions are not part of the OpenAPI document (the packages, the registry
      // and the portal carry them): what is read back is the payload contract.
      const { upgrade: _up, downgrade: _down, ...contract } = event;
      expect({ ...read, fields: payload(read.fields), source: undefined, composition: undefined }).toEqual({
        ...contract,
        fields: payload(event.fields),
        source: undefined,
        composition: undefined,
      });
    }
    expect(diffCatalogues(model, back)).toEqual([]);
    expect(diffCatalogues(back, model)).toEqual([]);
  });

  it('reads the YAML copy too', () => {
    const model = loadValid(fixturePath('small'));
    expect(diffCatalogues(model, readBack(model, 'packages/catalogue/openapi.yaml'))).toEqual([]);
  });

  it('points events at their line in the document', () => {
    const model = loadValid(fixturePath('small'));
    const text = JSON.stringify(buildOpenApi(model), null, 2);
    const result = readOpenApiCatalogue(text, 'openapi.json');
    if (!result.ok) throw new Error('did not read');
    const line = text.split('\n').findIndex((l) => l.includes('"account.removed-v2": {')) + 1;
    expect(result.catalogue.events['account.removed-v2']!.source).toEqual({
      file: 'openapi.json',
      line,
      column: 7,
    });
  });

  it.each([
    ['not JSON', '{"openapi": ', /^Not valid JSON/],
    [
      'another kind of document',
      '{"asyncapi": "3.0.0", "info": {}}',
      /not an OpenAPI document built by eventry/,
    ],
    [
      'a schema eventry never emits',
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'x', version: '1.0.0' },
        tags: [{ name: 'g', description: 'G', 'x-npm-package': '@s/g' }],
        components: {
          schemas: {
            'a.b-v1': {
              'x-event-type': 'a.b',
              'x-event-version': 'v1',
              'x-group': 'g',
              type: 'object',
              properties: { n: { type: ['string', 'null'] } },
            },
          },
        },
      }),
      /a\.b-v1\.n: a schema eventry does not emit/,
    ],
  ])('reports %s as a problem, not an exception', (_name, text, message) => {
    const result = readOpenApiCatalogue(text, 'openapi.json');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]!.message).toMatch(message);
  });
});

/** The seed's document with its named shapes moved to `components.yaml` and referenced from there. */
function splitDocument(): { text: string; moved: string[] } {
  const document = buildOpenApi(loadValid(`${REPO}/catalogue`)) as {
    components: { schemas: Record<string, Record<string, unknown>> };
  };
  const schemas = document.components.schemas;
  const moved = Object.keys(schemas).filter((name) => !schemas[name]!['x-event-type']);
  for (const name of moved) delete schemas[name];
  const text = JSON.stringify(document, null, 2).replace(/"#\/components\/schemas\/([^"]+)"/g, (ref, name) =>
    moved.includes(name) ? `"./components.yaml#/${name}"` : ref,
  );
  return { text, moved };
}

describe('a document with $refs into other files', () => {
  it('is refused with `external-ref` at each such $ref, never read as a catalogue with fewer fields', () => {
    const { text, moved } = splitDocument();
    expect(moved.length).toBeGreaterThan(10);
    const result = readOpenApiCatalogue(text, 'split/openapi.json');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const external = result.problems.filter((problem) => problem.code === 'external-ref');
    expect(external.length).toBe(result.problems.length);
    const lines = text.split('\n');
    for (const problem of external) {
      const ref = /`\$ref` (\S+) points into another file/.exec(problem.message)![1]!;
      expect(ref).toMatch(/^\.\/components\.yaml#\//);
      expect(problem.file).toBe('split/openapi.json');
      expect(lines[problem.line - 1]!.slice(problem.column - 1)).toMatch(
        new RegExp(`^${ref.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
      );
      expect(problem.hint).toMatch(/`openapi\.json` that `npm run build` writes/);
    }
  });

  it.each([
    ['JSON', 'openapi.json', (doc: unknown) => JSON.stringify(doc, null, 2)],
    ['YAML', 'openapi.yaml', (doc: unknown) => stringify(doc)],
  ])(
    'refuses a component that is a whole external $ref (%s), which would read as a shape without fields',
    (_kind, path, write) => {
      const document = buildOpenApi(loadValid(fixturePath('small'))) as {
        components: { schemas: Record<string, unknown> };
      };
      const schemas = document.components.schemas;
      const shape = Object.keys(schemas).find(
        (name) => !(schemas[name] as Record<string, unknown>)['x-event-type'],
      )!;
      schemas[shape] = { $ref: `https://example.com/shapes.json#/${shape}` };
      const text = write(document);
      const result = readOpenApiCatalogue(text, path);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const problem = result.problems.find((entry) => entry.message.startsWith(`${shape}: `))!;
      expect(problem.code).toBe('external-ref');
      expect(text.split('\n')[problem.line - 1]).toContain(`https://example.com/shapes.json#/${shape}`);
    },
  );

  it('refuses a component that is a whole $ref inside the document too, never an empty shape', () => {
    const document = buildOpenApi(loadValid(fixturePath('small'))) as {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    const schemas = document.components.schemas;
    const [first, second] = Object.keys(schemas).filter((name) => !schemas[name]!['x-event-type']);
    schemas[first!] = { $ref: `#/components/schemas/${second}` };
    const result = readOpenApiCatalogue(JSON.stringify(document, null, 2), 'openapi.json');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.problems.map((problem) => [problem.code, problem.message])).toContainEqual([
        'invalid-value',
        `${first}: a component that is only a \`$ref\` (#/components/schemas/${second}), which eventry does not emit.`,
      ]);
  });

  it('still reads a document whose $refs all stay inside it', () => {
    const document = buildOpenApi(loadValid(fixturePath('small')));
    const text = JSON.stringify(document, null, 2);
    expect(text).toContain('"$ref": "#/components/schemas/');
    expect(readOpenApiCatalogue(text, 'openapi.json').ok).toBe(true);
  });
});
