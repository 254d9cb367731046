import type { LoadOptions } from '../../load/index.js';
import type { FileStat, SealedFile } from '../write.js';
import type { EmitCache } from './emit-context.js';
import type { BuildState } from './state-file.js';
import type { FastTwin } from './twins.js';

/** Options of `buildCatalogue`. */
export interface BuildCatalogueOptions {
  /** The top-level folders the last build produced files in: eventry's even if this build produces none there. */
  previousAreas?: Iterable<string>;
  /** Told once when the commit waits for commands reading the output (see `CommitOptions.onReaders`). */
  onReaders?: (readers: number) => void;
  /** Whether the last build recorded a file (see `CommitOptions.previousFiles`). */
  previousFiles?: (path: string) => boolean;
  /** Memo of generated group packages across builds. */
  cache?: EmitCache;
  /** How the catalogue is read (the parse cache of earlier builds). */
  load?: LoadOptions;
  /**
   * The last build's state and the toolkit fingerprint: a group package whose inputs hash as recorded
   * and whose files are in the output as recorded is neither generated nor read back, its package.json
   * included (made from the same inputs and the version it holds, it would be the same).
   */
  state?: BuildState;
  tool?: string;
  /**
   * Builds the state file from the committed files' stats, each group package's unit hash, and the
   * group packages kept whole below their top (whose files there are not in `stats`: `keepBelow`);
   * `changed` when the caller knows it differs from the one in the output (see `CommitOptions.seal`).
   */
  seal?: (
    stats: ReadonlyMap<string, FileStat>,
    units: Record<string, string>,
    keptBelow: ReadonlySet<string>,
  ) => SealedFile;
  /**
   * Threads to run the emitters and group packages on (only from the compiled toolkit, and only when
   * enough groups are to be generated), and the folder of the disk cache they open again.
   */
  workers?: { threads: number; cacheDir?: string; minEvents?: number };
  /**
   * The top-level output folders none of whose folders changed since the last build (`BuildPlan.
   * untouchedAreas`): a group package kept there needs no stat of its per-event files, nor a walk for
   * orphans, nor its state parsed.
   */
  untouchedAreas?: ReadonlySet<string>;
  /** The twins turned off (`FastOptions.off`): the emitters and the threads' cache follow it. */
  off?: ReadonlySet<FastTwin>;
}
