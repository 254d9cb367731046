import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledModule, startWorker, WorkerModuleMissing } from '../../generators/shared/worker.js';
import { compiledToolkitPath, REPO } from '../helpers.js';

describe('startWorker: the one way to start a thread', () => {
  it('runs the compiled module in dist/ from a vitest run on the TypeScript source', async () => {
    expect(compiledModule('shared/exit-codes')).toBe(compiledToolkitPath('generators/shared/exit-codes.js'));
    // A .ts module would fail to load in a thread (no loader there): exit 0 means the compiled one ran.
    const worker = startWorker('shared/exit-codes');
    const errors: Error[] = [];
    worker.on('error', (error) => errors.push(error));
    const [code] = await once(worker, 'exit');
    expect(errors).toEqual([]);
    expect(code).toBe(0);
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

describe('no thread runs a code string', () => {
  it('no `eval: true` worker option anywhere in generators/ or scripts/', () => {
    const offenders = ['generators', 'scripts'].flatMap((folder) =>
      readdirSync(join(REPO, folder), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.ts'))
        .map((name) => join(folder, name))
        .filter((path) => /\beval\s*:\s*true\b/.test(readFileSync(join(REPO, path), 'utf8'))),
    );
    expect(offenders).toEqual([]);
  });
});
