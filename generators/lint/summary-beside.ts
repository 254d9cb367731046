import { createHash } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import type { CatalogueSourceFile } from '../load/index.js';
import type { Catalogue } from '../model.js';
import { startWorker } from '../shared/worker.js';

/** What the summary thread starts with: the catalogue folder, and whether it may read the parse cache. */
export interface LintSummaryData {
  dir: string;
  cache: boolean;
}

/**
 * What the summary thread answers, once: the summary line and the digest of the sources it linted
 * (`sourcesDigest`), or that it could not tell (the catalogue did not load as it read it).
 */
export type LintSummaryReply = { line: string; digest: string } | { failed: string };

/** A lint summary under way on a thread beside the build. */
export interface LintSummary {
  /**
   * The line `lintSummaryLine(catalogue, dir, sources)` gives: the thread's, when it linted exactly
   * these sources, else made on this thread (the thread failed, or the catalogue changed meanwhile).
   */
  line(catalogue: Catalogue, sources?: readonly CatalogueSourceFile[]): Promise<string>;
  /** Stops the thread; nothing of it is used (any outcome but a build). Harmless after `line`. */
  cancel(): void;
}

/** Options of `startLintSummary`. */
export interface LintSummaryOptions {
  /** The thread's module, as `startWorker` names it: an entry that builds the loader's accelerator. */
  module: string;
  /** false: the thread does not read the parse cache (`eventry build --no-cache`). */
  cache?: boolean;
}

/**
 * Starts the build's lint summary of the catalogue in `dir` on a thread, to overlap the build of an
 * edit: the thread loads the catalogue itself and lints it. Never fails: a thread that cannot start,
 * throws or stops leaves `line` to make the line on this thread, as a build without it does.
 */
export function startLintSummary(dir: string, options: LintSummaryOptions): LintSummary {
  let worker: Worker | undefined;
  let answer: Promise<LintSummaryReply | undefined>;
  try {
    const thread = startWorker(options.module, {
      workerData: { dir, cache: options.cache !== false } satisfies LintSummaryData,
    });
    worker = thread;
    answer = new Promise((resolve) => {
      thread.once('message', (reply: LintSummaryReply) => resolve(reply));
      thread.once('error', () => resolve(undefined));
      thread.once('exit', () => resolve(undefined));
    });
  } catch {
    answer = Promise.resolve(undefined);
  }
  let cancelled = false;
  const cancel = (): void => {
    cancelled = true;
    void worker?.terminate();
    worker = undefined;
  };
  return {
    async line(catalogue, sources) {
      const reply = cancelled ? undefined : await answer;
      cancel();
      if (reply && 'line' in reply && sources && reply.digest === sourcesDigest(sources)) return reply.line;
      const { lintSummaryLine } = await import('./gate.js');
      return lintSummaryLine(catalogue, dir, sources);
    },
    cancel,
  };
}

/** One digest of a catalogue's files (paths and texts, in path order), to tell two reads of it apart. */
export function sourcesDigest(files: readonly CatalogueSourceFile[]): string {
  const hash = createHash('sha256');
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of sorted) hash.update(`${file.path}\0${file.text.length}\0`).update(file.text);
  return hash.digest('hex');
}
