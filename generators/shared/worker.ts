import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The one way the toolkit starts a thread: on one of its own compiled modules, named by its path under
 * `generators/` without extension (`'execute/fast/emit-worker'`). Run from `dist/` the module is a
 * sibling of this file; run from the TypeScript source (vitest), it is the same module in `dist/`,
 * which `npm test` builds first. No code strings, no `eval`: the thread runs the compiled, type-checked
 * module that production runs.
 */
export function compiledModule(name: string): string {
  const here = fileURLToPath(import.meta.url);
  const compiled = here.endsWith('.js')
    ? fileURLToPath(new URL(`../${name}.js`, import.meta.url))
    : fileURLToPath(new URL(`../../dist/generators/${name}.js`, import.meta.url));
  return compiled;
}

/** Thrown when a worker's compiled module is missing (the toolkit was not built). */
export class WorkerModuleMissing extends Error {
  readonly code = 'worker-module-missing';
  constructor(readonly module: string) {
    super(`eventry: the compiled module \`${module}\` is missing; run \`npm run build:tool\`.`);
  }
}

/** Starts a thread on the compiled module `name` (see `compiledModule`). */
export function startWorker(name: string, options: WorkerOptions = {}): Worker {
  const path = compiledModule(name);
  if (!existsSync(path)) throw new WorkerModuleMissing(name);
  return new Worker(path, options);
}
