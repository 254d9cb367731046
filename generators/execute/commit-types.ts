import type { OutputFile } from '../emit/context.js';

// What the writer takes and reports: file stats, staged files, the commit's options and its failure. (split from write.ts, the writer).

/** What a write changed. */
export interface WriteReport {
  written: string[];
  unchanged: number;
  removed: string[];
  /**
   * The output folders the commit made, entered a file in or removed one from (and the folders above
   * them): the only ones whose time the commit changed (see `stampFolders`).
   */
  touched: string[];
}

/** Size and mtime of an output file once committed: what the no-op check compares. */
export interface FileStat {
  size: number;
  mtimeMs: number;
}

/** Files' stats by output path. */
export type FileStats = Record<string, FileStat>;

/**
 * A file a build thread staged itself (`stageOnThread`), with the size and time it has, or found
 * unchanged in the output (no stats).
 */
export interface StagedFile {
  path: string;
  stats?: { size: number; mtimeMs: number };
}

/** Where a build thread stages a transaction's files: the output root and the staging folder. */
export interface StagingTarget {
  root: string;
  staging: string;
}

/** A file that could not be staged; nothing in the output was changed. */
export class WriteFailure extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
    cause: unknown,
  ) {
    super(`cannot write ${path} (${code})`, { cause });
  }
}

/**
 * What a seal makes: its file, and the other files it names (`also`), each with its text when the seal
 * made it, without when the output has it already (then it stays). `changed` says the build knows the
 * file differs from the one in the output, which spares reading that back.
 */
export type SealedFile = OutputFile & {
  changed?: boolean;
  also?: readonly { path: string; text?: string }[];
};

/** Options of `commitOutputs`. */
export interface CommitOptions {
  /** The top-level folders the last build produced files in: eventry's even if this build produces none there. */
  previousAreas?: Iterable<string>;
  /** Told once when the commit waits for commands reading the output (how many). */
  onReaders?: (readers: number) => void;
  /** Whether the last build recorded a file: outside package folders only such a file is swept. */
  previousFiles?: (path: string) => boolean;
  /**
   * Builds one more file from the committed files' stats (the build state), committed with them: the
   * stats of every file produced but those below the folders kept whole (`keptBelow`: see
   * `Staging.keepBelow` and `settle`), in no particular order. `changed` says the build knows the
   * state differs from the one in the output, which spares reading that back.
   */
  seal?: (stats: ReadonlyMap<string, FileStat>, keptBelow: ReadonlySet<string>) => SealedFile;
  /**
   * The top-level folder of the seal's other files (`SealedFile.also`): those it does not name are
   * removed with the commit.
   */
  sealFolder?: string;
  /**
   * Top-level folders none of whose folders changed since the last build, each with a check that
   * files are exactly those the last build recorded below its top, with the same size and time: a
   * folder whose files there this build produces all unchanged and passing that check is committed
   * as kept whole (`Staging.keepBelow`) — the catalogue's per-event schemas on an edit of one group.
   */
  settle?: ReadonlyMap<string, (files: FileStats) => boolean>;
}

/** A file of the build's staging folder that the fast executor writes as it makes it (`openSink`). */
export interface OutputSink {
  write(bytes: Uint8Array): void;
  /** Cuts the file back to its first `length` bytes. */
  truncate(length: number): void;
  /** The bytes written so far. */
  read(): Buffer;
  /**
   * Done writing: the file's `FileStamp`, which it keeps once the build moves it into the output (a
   * sink that cannot tell returns undefined). Called once, also after a failure.
   */
  close?(): string | undefined;
}

/**
 * A file for the writer: what an emitter made (`OutputFile`), with what an executor knows of it besides.
 * The pure emitters and the reference executor set none of these; the fast executor does.
 */
export interface WriterFile extends OutputFile {
  /**
   * The same bytes as `contents`, in pieces, when they were made so (a catalogue document of tens of
   * megabytes): the writer writes these and never makes `contents`.
   */
  pieces?: readonly Uint8Array[];
  /** Set by an executor that read the file in the output: whether it holds these bytes already. */
  inOutput?: 'same' | 'different';
  /** The bytes are in the build's staging folder already (the fast executor streams large documents). */
  sunk?: true;
}
