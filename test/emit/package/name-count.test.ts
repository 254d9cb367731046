import { join } from 'node:path';
import { CodeGen } from 'ajv/dist/compile/codegen/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { countNames } from '../../../generators/emit/package/name-count.js';
import { compileEventValidators } from '../../../generators/emit/package/validators.js';
import { standaloneEventSchema } from '../../../generators/schema/json-schema.js';
import { fixturePath, loadValid, REPO } from '../../helpers.js';

// The build counts the names of ajv's code tree in one walk instead of ajv's getter per node: the counts,
// and so the code ajv writes, must be exactly ajv's own for every event.

type Tree = Parameters<typeof countNames>[0];
const prototype = CodeGen.prototype as unknown as { optimize(this: { _root: Tree }, n?: number): void };
const ajvOptimize = prototype.optimize;

afterEach(() => {
  prototype.optimize = ajvOptimize;
});

describe('counting the names of ajv code in one walk', () => {
  for (const [name, dir] of [
    ['the seed', join(REPO, 'catalogue')],
    ['fixture small', fixturePath('small')],
  ] as const) {
    it(`${name}: the same counts as ajv's getter at every optimisation, and the same code`, () => {
      const model = loadValid(dir);
      const compile = (key: string) =>
        compileEventValidators(key, standaloneEventSchema(model, key, 'closed'));
      const keys = Object.keys(model.events);
      const fast = keys.map(compile);
      // ajv's own optimiser (the build leaves a replaced one alone), checking the one-walk count each time.
      let checked = 0;
      prototype.optimize = function optimize(n) {
        expect(countNames(this._root)).toEqual(this._root.names);
        checked += 1;
        ajvOptimize.call(this, n);
      };
      const ajvs = keys.map(compile);
      expect(checked).toBeGreaterThanOrEqual(keys.length);
      expect(fast).toEqual(ajvs);
    });
  }
});
