import { type Catalogue, groupPackageName } from '../model.js';
import { generatedNote, jsonFile, type OutputFile } from './context.js';

/**
 * `packages/catalogue/`: the compiled catalogue as a whole (OpenAPI, AsyncAPI, every event's JSON
 * Schema). A private package: the documents are for docs tools, gateways and `eventry diff`;
 * what gets published are the group packages.
 */
export function emitCataloguePackage(model: Catalogue): OutputFile[] {
  const events = Object.keys(model.events).length;
  const shapes = Object.keys(model.shapes).length;
  const readme = [
    `# ${model.config.title} ${model.config.version}`,
    '',
    `<!-- ${generatedNote('catalogue/')} -->`,
    '',
    `${events} event versions in ${model.groups.length} groups, ${shapes} named shapes.`,
    '',
    '| file | what |',
    '|---|---|',
    '| `openapi.json`, `openapi.yaml` | OpenAPI 3.1: `components.schemas` has one schema per event key and per named shape |',
    '| `asyncapi.json`, `asyncapi.yaml` | AsyncAPI 3.0: a channel, a `send` operation and a message per event |',
    '| `schemas/<event key>.json` | one self-contained JSON Schema 2020-12 per event (shapes under `$defs`; standard keywords only, so strict ajv compiles it: `const ajv = new Ajv2020(); addFormats(ajv); ajv.compile(schema)`) |',
    '',
    '| group | package | events |',
    '|---|---|---|',
    ...model.groups.map((g) => `| ${g.title} | \`${groupPackageName(model, g)}\` | ${g.events.length} |`),
    '',
  ].join('\n');
  return [
    jsonFile('catalogue/package.json', {
      name: `${model.config.scope}/catalogue`,
      version: model.config.version,
      private: true,
      description: `${model.config.title}: OpenAPI 3.1, AsyncAPI 3.0 and JSON Schema documents. ${generatedNote('catalogue/')}`,
      license: 'UNLICENSED',
      exports: {
        './openapi.json': './openapi.json',
        './asyncapi.json': './asyncapi.json',
        './schemas/*': './schemas/*',
      },
    }),
    { path: 'catalogue/README.md', contents: readme },
  ];
}
