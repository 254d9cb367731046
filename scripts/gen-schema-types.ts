/**
 * `npm run gen:schema-types`: regenerates generators/schema/source/types.ts from the catalogue's JSON
 * Schemas (run it after editing a schema; the schema-types test fails until you do).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSchemaTypes, SCHEMA_TYPES_FILE } from './schema-types/generate.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

writeFileSync(join(REPO, SCHEMA_TYPES_FILE), await generateSchemaTypes(REPO));
console.log(`wrote ${SCHEMA_TYPES_FILE}`);
