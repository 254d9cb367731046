import type { ExistingFile } from '../../shared/fs.js';

export type { ExistingFile } from '../../shared/fs.js';

import type { OutputSink, WriterFile } from '../commit-types.js';

export type { OutputSink };

/** The emit cache's unit that keeps each group's source hash from one build to the next (group-units.ts). */
export const SOURCE_HASHES_UNIT = 'group-source-hashes';

/**
 * What a build keeps for the next one, by unit (the catalogue documents' entry indexes, the groups'
 * source hashes). The cache adds the toolkit's own fingerprint, so new generator code never reads an
 * older toolkit's value.
 */
export interface EmitCache {
  /** What `unit` kept with `keep` in the last build (structured-clone data), if the cache has it. */
  recall?(unit: string): unknown;
  /** Keeps `value` (structured-clone data) for the next build's `recall`, in place of the last one. */
  keep?(unit: string, value: unknown): void;
}

/**
 * What the fast executor's emitters reach besides the model: the output as the last build left it,
 * the staging folder, and the memo of units. With only `readExisting` they write what the pure
 * emitters write (the reference executor's output); the rest only makes it faster.
 */
export interface FastContext {
  /** The text of a file currently in the output root, if any (to carry package versions forward). */
  readExisting(path: string): string | undefined;
  /** A file currently in the output root, if any, to read in ranges (else `readExisting` is read). */
  openExisting?(path: string): ExistingFile | undefined;
  /**
   * Where a file of tens of megabytes is written piece by piece, so that it is never held whole (the
   * files returned then say `sunk`); without it, the file's bytes are returned.
   */
  openSink?(path: string): OutputSink;
  /** Optional memory between builds: the files are the same with or without it. */
  cache?: EmitCache;
}

/** A fast emitter: the pure emitter of the same name, made faster with what `FastContext` gives. */
export type FastEmitter = (
  model: import('../../model.js').Catalogue,
  context: FastContext,
) => WriterFile[] | Promise<WriterFile[]>;
