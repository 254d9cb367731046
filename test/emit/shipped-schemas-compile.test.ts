import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { emitJsonSchemas } from '../../generators/emit/json-schema.js';
import { COMPILE_NOTE } from '../../generators/schema/json-schema.js';
import { loadValid, REPO } from '../helpers.js';

const real = loadValid(`${REPO}/catalogue`);

// Regression: the shipped schemas carried `x-event-type`, `x-group`, ... which ajv's default strict
// mode rejects as unknown keywords, although the READMEs called them strict.
describe('shipped schemas compile in default strict ajv', () => {
  const files = emitJsonSchemas(real);

  it('covers every event of the real catalogue', () => {
    expect(files.length).toBe(Object.keys(real.events).length);
  });

  it.each(files.map((file) => [file.path, file.contents]))(
    '%s compiles with new Ajv2020() + addFormats',
    (_path, text) => {
      const schema = JSON.parse(String(text)) as Record<string, unknown>;
      // Exactly what the $comment and the READMEs say to do: no options.
      const ajv = new Ajv2020();
      addFormats.default(ajv);
      expect(() => ajv.compile(schema)).not.toThrow();
      expect(schema.$comment).toContain(COMPILE_NOTE);
    },
  );
});
