import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledToolkitPath, REPO } from '../helpers.js';

// Every command that reads a catalogue starts by loading it, so what the loader imports is start-up
// time: ajv's compiler is 80 modules, 40-80 ms to import on a 2-core host. The compiled loader checks
// files with precompiled validators and never needs it. (Under vitest the toolkit runs from its
// sources, so the compiled one is run in a process of its own.)

/** The CommonJS modules a process had loaded once the compiled loader read `catalogue` (package/path). */
function modulesLoadedBy(catalogue: string): { ok: boolean; loaded: string[] } {
  const script = `
    const { loadCatalogue } = await import(${JSON.stringify(compiledToolkitPath('generators/load/index.js'))});
    const { createRequire } = await import('node:module');
    const result = loadCatalogue(${JSON.stringify(catalogue)});
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    console.log(JSON.stringify({ ok: result.ok, loaded }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  const { ok, loaded } = JSON.parse(run.stdout) as { ok: boolean; loaded: string[] };
  return {
    ok,
    loaded: loaded.map((path) => path.replace(/^.*[\\/]node_modules[\\/]/, '').replaceAll('\\', '/')),
  };
}

describe('loading a catalogue', () => {
  it('imports none of ajv’s compiler', () => {
    const { ok, loaded } = modulesLoadedBy(join(REPO, 'catalogue'));
    expect(ok).toBe(true);
    // The precompiled checks' one run-time helper, and nothing else of ajv's.
    expect(loaded.filter((path) => path.startsWith('ajv/'))).toEqual(['ajv/dist/runtime/ucs2length.js']);
  });
});
