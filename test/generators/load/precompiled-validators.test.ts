import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compileLoadValidators } from '../../../generators/load/check-shape.js';
import { REPO } from '../../helpers.js';
import { BAD } from './bad-fixture.js';

// `npm run build:tool` compiles the catalogue format's schemas ahead of time (ajv standalone code in
// dist/), which the compiled loader requires instead of compiling them on every run. Its errors must be
// exactly the ones the run-time compiled validators give, on good files and on every bad-corpus file.

const PRECOMPILED = join(REPO, 'dist/generators/load/schema/validators.cjs');

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
    const precompiled = createRequire(import.meta.url)(PRECOMPILED) as ReturnType<
      typeof compileLoadValidators
    >;
    const compiled = compileLoadValidators();
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

  it('spare the compiled loader ajv itself: loading a catalogue imports none of its compiler', () => {
    // ajv's 70 modules cost 40-80 ms to import, a tenth of an edit's build at 10,000 events.
    const script = `
      const { loadCatalogue } = await import(${JSON.stringify(join(REPO, 'dist/generators/load/index.js'))});
      const { createRequire } = await import('node:module');
      const result = loadCatalogue(${JSON.stringify(join(REPO, 'catalogue'))});
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({ ok: result.ok, ajv: loaded.filter((path) => /[\\/]ajv[\\/]dist[\\/]/.test(path)) }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const { ok, ajv } = JSON.parse(run.stdout) as { ok: boolean; ajv: string[] };
    expect(ok).toBe(true);
    // The precompiled code's one run-time helper, and nothing of ajv's compiler.
    expect(ajv.map((path) => path.replace(/.*[\\/]ajv[\\/]dist[\\/]/, ''))).toEqual([
      'runtime/ucs2length.js',
    ]);
  });
});
