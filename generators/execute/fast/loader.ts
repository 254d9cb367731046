import type { LoadAccelerator } from '../../load/accelerator.js';
import { PLAIN_LOAD } from '../../load/accelerator.js';
import { FastLoad, readOnlyParseCache } from './load/index.js';

// The fast path's door for the commands: a command gets its loader here, with or without the
// accelerator. From outside `fast/` only this module is imported, and the executor seam `index.ts`
// (by `eventry build`, whose no-op must not load the loader this module brings); the plain path
// (`reference.ts`, the writer) imports neither (`test/execute/seam.test.ts`, docs/decisions/0100).

/** The build state a build of the fast executor leaves at the top of its output. */
export { STATE_FILE } from './state-file.js';

/** What a command's loader may do besides the plain load. */
export interface LoaderOptions {
  /** `false`: the plain loader (`PLAIN_LOAD`), every file parsed by `yaml` and every check run. */
  accelerate?: boolean;
  /** Keep every file's parse by its text: loads of catalogues with files in common read each once. */
  memo?: boolean;
  /** Load a second catalogue beside the first (the other side of a diff), from what differs. */
  beside?: boolean;
  /**
   * Catalogue folders whose projects' parse caches (an earlier `eventry build`'s) serve the parses,
   * read and never written; none is used when no such cache exists (a CI checkout).
   */
  readCacheOf?: readonly string[];
}

/** The loader a command passes to the load (`LoadOptions.accelerator`). */
export function openLoader(options: LoaderOptions = {}): LoadAccelerator {
  if (options.accelerate === false) return PLAIN_LOAD;
  const cache = options.readCacheOf ? readOnlyParseCache(options.readCacheOf) : undefined;
  return new FastLoad({
    ...(options.memo ? { memo: true } : {}),
    ...(options.beside ? { beside: true } : {}),
    ...(cache ? { cache } : {}),
  });
}
