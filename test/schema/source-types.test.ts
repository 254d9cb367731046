import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSchemaTypes, SCHEMA_TYPES_FILE } from '../../scripts/schema-types/generate.js';
import { REPO } from '../helpers.js';

/**
 * The loader reads raw YAML through types generated from the catalogue's own JSON Schemas. A schema
 * edited without regenerating them would let the resolver read keys the schema no longer has (or miss
 * new ones) with no compile error: the committed types must be exactly what the schemas give.
 */
describe('schema types', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'eventry-schema-types-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('committed generators/schema/source/types.ts is what the schemas generate (run npm run gen:schema-types)', async () => {
    const committed = readFileSync(join(REPO, SCHEMA_TYPES_FILE), 'utf8');
    expect(await generateSchemaTypes(REPO)).toBe(committed);
  });

  it('a key added to the catalogue file schema shows up in the generated types, so stale types fail above', async () => {
    cpSync(join(REPO, 'generators/schema/source'), join(scratch, 'generators/schema/source'), {
      recursive: true,
    });
    const path = join(scratch, 'generators/schema/source/catalogue-file.schema.json');
    const schema = JSON.parse(readFileSync(path, 'utf8'));
    schema.$defs.event.properties.owner = { type: 'string' };
    writeFileSync(path, JSON.stringify(schema));
    const regenerated = await generateSchemaTypes(scratch);
    expect(regenerated).not.toBe(readFileSync(join(REPO, SCHEMA_TYPES_FILE), 'utf8'));
    expect(regenerated).toMatch(/export interface Event \{[^}]*\n {2}owner\?: string;/);
  });
});
