import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../generators/emit/openapi.js';
import { readOpenApiCatalogue } from '../../generators/sources/openapi.js';
import { fixturePath, loadValid, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

/**
 * Component names are user text: `constructor`, `toString`, `__proto__` are names like any other, not
 * keys of Object.prototype. The small fixture's compiled OpenAPI document with its shapes renamed.
 */
const RENAMED: Record<string, string> = {
  BillingAccount: 'constructor',
  Ledger: 'toString',
  Period: '__proto__',
  GroupTrait: 'hasOwnProperty',
};

const PROTO = '__proto__';

function documentText(change?: (schemas: Record<string, { properties: Record<string, unknown> }>) => void) {
  let text = JSON.stringify(buildOpenApi(loadValid(fixturePath('small'))), null, 2);
  for (const [from, to] of Object.entries(RENAMED))
    text = text.replaceAll(`"${from}"`, `"${to}"`).replaceAll(`/${from}"`, `/${to}"`);
  if (!change) return text;
  const document = JSON.parse(text);
  change(document.components.schemas);
  return JSON.stringify(document, null, 2);
}

describe('OpenAPI component names that are Object.prototype keys', () => {
  it('the loader keeps constructor, toString, __proto__ and hasOwnProperty as shapes', async () => {
    const result = readOpenApiCatalogue(documentText(), 'openapi.json');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.catalogue.shapes).sort()).toEqual(
      ['ConvBase', 'GroupVersion', ...Object.values(RENAMED)].sort(),
    );
    expect(result.catalogue.shapes[PROTO]?.name).toBe(PROTO);
  });

  it('eventry diff finds the changes inside them', async () => {
    const dir = tempDir();
    const before = join(dir, 'before.json');
    const after = join(dir, 'after.json');
    writeFileSync(before, documentText());
    writeFileSync(
      after,
      documentText((schemas) => {
        // Typed as `string`, the name reads the index signature rather than Object.prototype.toString.
        schemas[RENAMED.Ledger!]!.properties.memo = { type: 'string' };
        schemas[PROTO]!.properties.zone = { type: 'string' };
      }),
    );
    const same = await runCliInProcess(['diff', before, before]);
    expect(same.stderr).toBe('');
    expect(same.status).toBe(0);
    const result = await runCliInProcess(['diff', before, after, '--format', 'json']);
    expect(result.stderr).toBe('');
    const changes = JSON.parse(result.stdout).changes as { attr: string; rule: string }[];
    expect(changes.map(({ attr, rule }) => `${attr} ${rule}`).sort()).toEqual([
      'created_versions[].effective_period.zone optional-field-added',
      'ledger.memo optional-field-added',
    ]);
    expect(result.status).toBe(0);
  });
});
