import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileEventValidators } from '../../../generators/emit/package/validators.js';
import { standaloneEventSchema } from '../../../generators/schema/json-schema.js';
import { loadValid, REPO } from '../../helpers.js';

describe('validator code from reused ajv instances', () => {
  const model = loadValid(join(REPO, 'catalogue'));
  const compile = (key: string) => compileEventValidators(key, standaloneEventSchema(model, key, 'closed'));

  it('an event compiles to the same code whatever was compiled before it (no leaked names)', () => {
    const keys = Object.keys(model.events);
    const forward = new Map(keys.map((key) => [key, compile(key)]));
    for (const key of [...keys].reverse()) expect(compile(key)).toEqual(forward.get(key));
    // Function and schema names restart for each event, as with a new instance.
    const first = forward.get(keys.at(-1)!)!;
    expect(first.code).toMatch(/^exports\.validate = validate\d+;/m);
    expect(first.code).toContain('function validate0(');
  });
});
