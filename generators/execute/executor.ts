import type { EmitterName } from '../emit/index.js';
import type { CatalogueProblem, CatalogueSourceFile } from '../load/index.js';
import type { Catalogue } from '../model.js';
import type { WriteFailure, WriteReport } from './write.js';

/** What to build: a catalogue folder into an output folder (both absolute). */
export interface BuildRequest {
  catalogueDir: string;
  outDir: string;
  /** Build from scratch: an executor that remembers earlier builds ignores what it remembers. */
  force?: boolean;
  /** Told once when the commit waits for commands reading the output (how many). */
  onReaders?: (readers: number) => void;
}

/** How a build ended; the output changed only when `kind` is `built`. */
export type BuildResult =
  | {
      kind: 'built';
      catalogue: Catalogue;
      report: WriteReport;
      /** The catalogue's files the build read, for what reads them next (the lint), not the disk again. */
      sources?: readonly CatalogueSourceFile[];
    }
  /** Nothing to do: the output is what the catalogue builds (only an executor that remembers can tell). */
  | { kind: 'up-to-date'; fileCount: number }
  | { kind: 'problems'; problems: CatalogueProblem[] }
  | { kind: 'emitter-failed'; emitter: EmitterName; error: unknown }
  | { kind: 'write-failed'; failure: WriteFailure };

/**
 * One way to run a build. Every executor writes the same output, byte for byte, as the reference
 * executor (reference.ts), the plain path; the fast one (fast/) adds caches, threads and incremental
 * work behind this interface, and `test/execute/executors-agree.test.ts` holds it to the reference.
 */
export interface Executor {
  readonly name: string;
  build(request: BuildRequest): Promise<BuildResult>;
}
