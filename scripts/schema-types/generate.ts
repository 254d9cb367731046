import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

/** The catalogue's own JSON Schemas whose types the loader reads raw YAML with, in output order. */
const SCHEMAS = ['catalogue-file', 'config'] as const;

/** Where the generated types are committed, relative to the repository root. */
export const SCHEMA_TYPES_FILE = 'generators/schema/source/types.ts';

const BANNER = `// Generated from generators/schema/source/{${SCHEMAS.join(',')}}.schema.json by \`npm run gen:schema-types\`.
// Do not edit: change the schema and regenerate (test/schema/source-types.test.ts fails when stale).
// biome-ignore-all format: formatted by json-schema-to-typescript (prettier), which the freshness test compares.`;

/**
 * The TypeScript types of the catalogue file and config schemas, by json-schema-to-typescript, so the
 * loader's view of the raw YAML cannot drift from the schema that checks it.
 */
export async function generateSchemaTypes(repo: string): Promise<string> {
  const parts: string[] = [];
  for (const name of SCHEMAS) {
    const path = join(repo, 'generators/schema/source', `${name}.schema.json`);
    const schema: JSONSchema = JSON.parse(readFileSync(path, 'utf8'));
    // The schema files are closed; `additionalProperties: false` keeps json-schema-to-typescript from
    // adding index signatures to the objects the schema leaves open by omission (none here).
    const text = await compile(schema, name, {
      bannerComment: '',
      additionalProperties: false,
      unreachableDefinitions: false,
      style: { singleQuote: true, printWidth: 110, trailingComma: 'all' },
    });
    parts.push(text.trim());
  }
  return `${BANNER}\n\n${parts.join('\n\n')}\n`;
}
