import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The toolkit's own source folder `generators/`, found upward from this module: the tool runs compiled
 * from `dist/generators/...` and vitest from `generators/...`, and tsc does not copy the templates into
 * `dist/`.
 */
function findSourceRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'generators', 'runtime', 'runtime.ts'))) return join(dir, 'generators');
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('eventry: cannot find generators/runtime/runtime.ts above the toolkit');
    dir = parent;
  }
}

let sourceRoot: string | undefined;
const cache = new Map<string, string>();

/** A file of the toolkit's source, by path below `generators/` (templates, the package run time). */
export function readToolkitFile(path: string): string {
  let text = cache.get(path);
  if (text === undefined) {
    sourceRoot ??= findSourceRoot();
    text = readFileSync(join(sourceRoot, path), 'utf8');
    cache.set(path, text);
  }
  return text;
}

/** The absolute path of a file of the toolkit's source, by path below `generators/`. */
export function toolkitFilePath(path: string): string {
  sourceRoot ??= findSourceRoot();
  return join(sourceRoot, path);
}

/**
 * The compiled toolkit's file at `path` below `generators/` (a module as `.js`, or what
 * `scripts/precompile.ts` wrote): in `dist/`, also when this process runs from the TypeScript source
 * (vitest), which `npm test` builds first. One way to run: source and `dist/` load the same compiled files.
 */
export function compiledToolkitFile(path: string): string {
  const fromDist = import.meta.url.endsWith('.js');
  return fileURLToPath(new URL(fromDist ? `../${path}` : `../../dist/generators/${path}`, import.meta.url));
}

/** Thrown when a part of the compiled toolkit is missing or older than its source: the fix is to build it. */
export class ToolkitNotBuilt extends Error {
  readonly code = 'toolkit-not-built';
  constructor(what: string, state: 'missing' | 'out of date' = 'missing') {
    super(`eventry: ${what} is ${state}; run \`npm run build:tool\`. [toolkit-not-built]`);
  }
}

const require = createRequire(import.meta.url);

/**
 * A module `scripts/precompile.ts` wrote into the compiled toolkit (`path` below `generators/`, see
 * `compiledToolkitFile`), required. Missing, or not `current` (compiled from other sources than the ones
 * here now), it is `ToolkitNotBuilt`: nothing compiles it on use, so source and `dist/` run the same code.
 */
export function requirePrecompiled<T>(
  path: string,
  what: string,
  current: (module: T) => boolean = () => true,
): T {
  const file = compiledToolkitFile(path);
  if (!existsSync(file)) throw new ToolkitNotBuilt(what);
  const module = require(file) as T;
  if (!current(module)) throw new ToolkitNotBuilt(what, 'out of date');
  return module;
}

/**
 * ajv's JSON Schema 2020-12 class, loaded when first asked for rather than imported: its 80 modules
 * cost every command that loads a catalogue, and only one with an allow list compiles a schema.
 */
export function requireAjv2020(): typeof import('ajv/dist/2020.js').Ajv2020 {
  return (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020;
}
