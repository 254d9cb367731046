import { existsSync } from 'node:fs';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { compiledToolkitFile, ToolkitNotBuilt } from './toolkit-files.js';

/** What names a worker module: its path under `generators/`, kebab-case segments, no extension. */
const MODULE_NAME = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;

/**
 * The compiled file of the toolkit module `name` (its path under `generators/` without extension,
 * `'docs/site-writer-worker'`): in `dist/`, whether this process runs from `dist/` or from the
 * TypeScript source under vitest, so a thread always runs the module production runs.
 */
export function compiledModule(name: string): string {
  // A programming error, not input: only the toolkit's own modules may run in a thread.
  if (!MODULE_NAME.test(name)) throw new TypeError(`not a toolkit module name: ${JSON.stringify(name)}`);
  return compiledToolkitFile(`${name}.js`);
}

/** Thrown when a worker's compiled module is missing (the toolkit was not built). */
export class WorkerModuleMissing extends ToolkitNotBuilt {
  constructor(readonly module: string) {
    super(`the compiled module \`${module}\``);
  }
}

/**
 * The one way the toolkit starts a thread: on one of its own compiled modules (see `compiledModule`).
 * No code strings, no `eval`. Throws `WorkerModuleMissing` (code `toolkit-not-built`) at once when the
 * module is not built, instead of the thread failing later with a module-resolution error.
 */
export function startWorker(name: string, options: WorkerOptions = {}): Worker {
  return startCompiled(name, compiledModule(name), options);
}

/**
 * `startWorker` for a module of the repository's `scripts/` (`'bench/validate-worker'`, its path under
 * `scripts/` without extension): its compiled file in `dist/scripts/`, from source under vitest too.
 */
export function startScriptWorker(name: string, options: WorkerOptions = {}): Worker {
  if (!MODULE_NAME.test(name)) throw new TypeError(`not a script module name: ${JSON.stringify(name)}`);
  return startCompiled(`scripts/${name}`, compiledToolkitFile(`../scripts/${name}.js`), options);
}

function startCompiled(module: string, path: string, options: WorkerOptions): Worker {
  if (!existsSync(path)) throw new WorkerModuleMissing(module);
  return new Worker(path, options);
}
