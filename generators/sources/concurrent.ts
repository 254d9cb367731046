import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Catalogue } from '../model.js';
import { estimateSourceSize, resolveSource } from './index.js';
import type { SourceOptions, SourceResult } from './source.js';

// `diff` reads two catalogues, and at 10,000 events each takes a second, almost all of it parsing YAML:
// one after the other they share a parse memo (files alike are parsed once); side by side, one is
// loaded in a worker thread while the main thread loads the other, on a second core.

const WORKER = new URL('./resolve-worker.js', import.meta.url);

/**
 * Whether a worker thread can help: a second core, and the compiled worker beside this module (run from
 * TypeScript source, as the unit tests do, there is none: Node cannot start a `.ts` worker).
 */
export function canResolveConcurrently(): boolean {
  return availableParallelism() > 1 && existsSync(fileURLToPath(WORKER));
}

/**
 * Below this much YAML on either side the worker does not pay: it loads its own modules and compiles its
 * own schema validators first, and the seed (about 100 KB) loads in a few hundred milliseconds.
 */
export const WORKER_MIN_BYTES = 512 * 1024;

/** Whether OLD and NEW are both large enough, by their estimated size, to load side by side. */
export function shouldResolveConcurrently(old: string, now: string, options: SourceOptions): boolean {
  if (!canResolveConcurrently()) return false;
  return [old, now].every((spec) => (estimateSourceSize(spec, options) ?? 0) >= WORKER_MIN_BYTES);
}

/**
 * Resolves OLD and NEW, the same as `resolveSource` on each: by default one after the other, sharing one
 * parse memo, so a file both hold alike is parsed once; with `concurrent`, OLD in a worker thread while
 * NEW resolves here. For two versions of a catalogue (what a review compares: nearly every file alike)
 * the memo wins: two 10,000-event folders one group apart resolved in 1.07 to 1.15 s one after the
 * other, against 1.57 to 1.63 s side by side on 2 idle cores. Two catalogues with little in common
 * would resolve faster side by side (`shouldResolveConcurrently` says when both are large).
 */
export async function resolveSourcePair(
  old: string,
  now: string,
  options: SourceOptions,
  concurrent = false,
): Promise<[SourceResult, SourceResult]> {
  if (!concurrent) {
    // One after the other, a file both sides hold alike is read once, and NEW resolves only what its
    // files change from OLD's, sharing OLD's objects for the rest (`LoadOptions.previous`).
    const shared: SourceOptions = {
      ...options,
      load: { ...options.load, memo: options.load?.memo ?? new Map(), previous: {} },
    };
    return [resolveSource(old, shared), resolveSource(now, shared)];
  }
  const worker = new Worker(WORKER, { workerData: { spec: old, options } });
  const before = new Promise<SourceResult>((resolve, reject) => {
    worker.once('message', (result: SourceResult) => resolve(reviveResult(result)));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the worker resolving ${old} exited (${code}) without a result`)),
    );
  });
  let after: SourceResult;
  try {
    after = resolveSource(now, options);
  } catch (error) {
    // A bug on this side: stop the other, or it keeps the process alive until it is done.
    before.catch(() => undefined);
    await worker.terminate();
    throw error;
  }
  return [await before, after];
}

/** A result as it was before crossing to this thread: structured clone gives every object a prototype. */
function reviveResult(result: SourceResult): SourceResult {
  if (!result.ok) return result;
  return { ...result, source: { ...result.source, catalogue: reviveCatalogue(result.source.catalogue) } };
}

/** The model keys shapes and events by user-given names, in null-prototype objects: made so again. */
function reviveCatalogue(catalogue: Catalogue): Catalogue {
  return {
    ...catalogue,
    shapes: Object.assign(Object.create(null), catalogue.shapes),
    events: Object.assign(Object.create(null), catalogue.events),
  };
}
