import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import {
  compiledModule,
  startScriptWorker,
  startWorker,
  WorkerModuleMissing,
} from '../../generators/shared/worker.js';
import { compiledToolkitPath, REPO } from '../helpers.js';

/** The errors a thread raised and its exit code, once it has ended. */
async function endOf(worker: Worker): Promise<{ errors: Error[]; code: number }> {
  const errors: Error[] = [];
  worker.on('error', (error) => errors.push(error));
  const [code] = (await once(worker, 'exit')) as [number];
  return { errors, code };
}

describe('startWorker: the one way to start a thread', () => {
  it('runs the compiled module in dist/ from a vitest run on the TypeScript source', async () => {
    expect(compiledModule('shared/exit-codes')).toBe(compiledToolkitPath('generators/shared/exit-codes.js'));
    // A .ts module would fail to load in a thread (no loader there): exit 0 means the compiled one ran.
    expect(await endOf(startWorker('shared/exit-codes'))).toEqual({ errors: [], code: 0 });
  });

  it('a module that was not built is a coded error at once, naming the fix', () => {
    const start = () => startWorker('docs/no-such-worker');
    expect(start).toThrow(WorkerModuleMissing);
    expect(start).toThrow(/`docs\/no-such-worker` is missing; run `npm run build:tool`/);
    expect(() => start()).toThrow(expect.objectContaining({ code: 'toolkit-not-built' }));
  });

  it('only the toolkit’s own modules, by name: no paths, no extensions, no code', () => {
    for (const name of ['../outside', '/abs/path', 'docs/site.ts', 'require("fs")', ''])
      expect(() => startWorker(name), name).toThrow(TypeError);
  });
});

/** The TypeScript files of generators/, scripts/ and test/ (not the fixtures' generated output) whose text matches. */
function filesMatching(pattern: RegExp): string[] {
  return ['generators', 'scripts', 'test'].flatMap((folder) =>
    readdirSync(join(REPO, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts') && !name.startsWith('fixtures'))
      .map((name) => join(folder, name))
      .filter((path) => pattern.test(readFileSync(join(REPO, path), 'utf8'))),
  );
}

describe('startScriptWorker: the same path for a module of scripts/', () => {
  it('runs the compiled module in dist/scripts/ from a vitest run on the TypeScript source', async () => {
    // A module with no top-level work: the thread loads it and ends; a .ts one would fail to load.
    expect(await endOf(startScriptWorker('bench/measure'))).toEqual({ errors: [], code: 0 });
  });

  it('a script module that was not built is the same coded error', () => {
    const start = () => startScriptWorker('bench/no-such-worker');
    expect(start).toThrow(/`scripts\/bench\/no-such-worker` is missing; run `npm run build:tool`/);
    expect(() => start()).toThrow(expect.objectContaining({ code: 'toolkit-not-built' }));
  });

  it('by name only: no paths, no extensions, no code', () => {
    for (const name of ['../generators/x', '/abs/path', 'bench/validate.ts', 'require("fs")', ''])
      expect(() => startScriptWorker(name), name).toThrow(TypeError);
  });
});

describe('no thread runs a code string', () => {
  it('no worker option `eval` set to true anywhere in generators/, scripts/ or test/', () => {
    expect(filesMatching(/\beval\s*:\s*true\b/)).toEqual([]);
  });
});

describe('one way to run a worker', () => {
  it('no thread is constructed outside generators/shared/worker.ts', () => {
    expect(filesMatching(/\bnew\s+Worker\s*\(/)).toEqual([join('generators', 'shared', 'worker.ts')]);
  });
});
