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

const require = createRequire(import.meta.url);

/**
 * A module `scripts/precompile.ts` wrote into `dist/` (at `path`), or undefined when it is not there
 * (the toolkit runs from its TypeScript source) or `current` says it no longer matches what it was
 * compiled from: the caller then compiles the same thing itself.
 */
export function loadPrecompiled<T>(
  path: string,
  current: (module: T) => boolean = () => true,
): T | undefined {
  if (!existsSync(path)) return undefined;
  const module = require(path) as T;
  return current(module) ? module : undefined;
}

/**
 * ajv's JSON Schema 2020-12 class, loaded when first asked for rather than imported: commands that load
 * a catalogue compile a schema only when a precompiled validator is missing (see docs/decisions/0060).
 */
export function requireAjv2020(): typeof import('ajv/dist/2020.js').Ajv2020 {
  return (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020;
}
