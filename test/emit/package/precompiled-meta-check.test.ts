import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createAjv, PRECOMPILED_META_CHECK } from '../../../generators/emit/package/validators.js';
import { standaloneEventSchema } from '../../../generators/schema/json-schema.js';
import { compiledToolkitPath, fixturePath, loadValid } from '../../helpers.js';

// A build checks every event schema against the 2020-12 meta-schema before compiling its validator;
// the compiled toolkit loads that check precompiled (`npm run build:tool`) instead of compiling the
// meta-schema in each process. It must accept and refuse exactly what ajv's own check does.
describe('the precompiled meta-schema check', () => {
  const file = compiledToolkitPath('generators', PRECOMPILED_META_CHECK);
  const require = createRequire(import.meta.url);

  it('is written by `npm run build:tool` for the ajv installed now', () => {
    expect(existsSync(file)).toBe(true);
    expect(require(file).ajvVersion).toBe(require('ajv/package.json').version);
  });

  it('accepts and refuses the schemas ajv’s own check accepts and refuses', () => {
    const precompiled = require(file) as (schema: unknown) => boolean;
    const ajv = createAjv({ allErrors: true });
    const model = loadValid(fixturePath('small'));
    const schemas: unknown[] = Object.keys(model.events).map((key) =>
      standaloneEventSchema(model, key, 'closed'),
    );
    schemas.push(
      { type: 'strin' },
      { type: 'object', properties: { a: { type: 'integer', minimum: 'one' } } },
      { type: 'object', required: 'a' },
      { $defs: { a: { enum: 3 } } },
      { items: [{ type: 'string' }] },
      { type: 'array', prefixItems: [], items: false },
      { 'x-eventry-group': 'billing', deprecated: 'yes' },
    );
    const verdicts = schemas.map((schema) => [precompiled(schema), ajv.validateSchema(schema as object)]);
    for (const [mine, theirs] of verdicts) expect(mine).toBe(theirs);
    expect(verdicts.filter(([, theirs]) => theirs === false).length).toBeGreaterThanOrEqual(5);
    expect(verdicts.filter(([, theirs]) => theirs === true).length).toBeGreaterThan(5);
  });
});
