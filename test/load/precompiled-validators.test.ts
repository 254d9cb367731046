import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  LOAD_AJV_OPTIONS,
  LOAD_SCHEMAS,
  PRECOMPILED_LOAD_VALIDATORS,
} from '../../generators/load/check-shape.js';
import { compiledToolkitPath, REPO } from '../helpers.js';
import { BAD } from './bad-fixture.js';

// `npm run build:tool` compiles the catalogue format's schemas ahead of time (ajv standalone code in
// dist/), which the loader requires instead of compiling them on every run. Its errors must be exactly
// the ones ajv compiling the same schemas at run time gives, on good files and on every bad-corpus file.

const PRECOMPILED = compiledToolkitPath('generators', PRECOMPILED_LOAD_VALIDATORS);

/** The loader's validators as ajv compiles them at run time, with the options the build uses. */
function compileAtRunTime() {
  const ajv = new Ajv2020(LOAD_AJV_OPTIONS);
  return { file: ajv.compile(LOAD_SCHEMAS.file), config: ajv.compile(LOAD_SCHEMAS.config) };
}

/** Every YAML file under `dir`, parsed (files yaml cannot read are left to the loader's own tests). */
function yamlFiles(dir: string): { path: string; value: unknown }[] {
  const found: { path: string; value: unknown }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) found.push(...yamlFiles(path));
    else if (/\.ya?ml$/.test(name)) {
      try {
        found.push({ path, value: parse(readFileSync(path, 'utf8')) });
      } catch {
        // Not YAML: the parser's problem, not the schema's.
      }
    }
  }
  return found;
}

describe('the precompiled catalogue-format validators', () => {
  it('exist in the compiled toolkit', () => {
    expect(existsSync(PRECOMPILED)).toBe(true);
  });

  it('report exactly what the run-time compiled ones report, on good and bad files', () => {
    const precompiled = createRequire(import.meta.url)(PRECOMPILED) as ReturnType<typeof compileAtRunTime>;
    const compiled = compileAtRunTime();
    const files = [...yamlFiles(join(REPO, 'catalogue')), ...yamlFiles(BAD)];
    let failing = 0;
    for (const { path, value } of files) {
      const kind = path.endsWith('eventry.config.yaml') ? 'config' : 'file';
      const expected = compiled[kind](value);
      expect(precompiled[kind](value), path).toBe(expected);
      expect(JSON.stringify(precompiled[kind].errors), path).toBe(JSON.stringify(compiled[kind].errors));
      if (!expected) failing++;
    }
    // The corpus does reach the error paths.
    expect(failing).toBeGreaterThan(10);
  });
});
