import type { Catalogue } from '../model.js';
import { generatedNote } from '../schema/generated-note.js';
import type { ExistingFile } from '../shared/fs.js';

/** The note every generated file carries; the schema layer owns it, as standalone schemas carry it too. */
export { generatedNote };

/** A file an emitter wants written, path relative to the output root (`packages/`), `/`-separated. */
export interface OutputFile {
  path: string;
  contents: string;
  /**
   * The same bytes as `contents`, in pieces, when the emitter has them so (a catalogue document of tens
   * of megabytes): the build writes these and never makes `contents`.
   */
  pieces?: readonly Uint8Array[];
  /** Set when the emitter read the file in the output: whether it holds these bytes already. */
  inOutput?: 'same' | 'different';
  /** The bytes are in the build's staging folder already, written through `EmitContext.openSink`. */
  sunk?: true;
}

/** A file of the build's staging folder that an emitter writes as it makes it (`EmitContext.openSink`). */
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

export type { ExistingFile } from '../shared/fs.js';

/**
 * Memoises an emitter's expensive units (one group package) across builds. The key must cover every
 * input of the unit; the cache itself adds the toolkit's own fingerprint, so new generator code never
 * reuses old output.
 */
export interface EmitCache {
  get(unit: string, key: string): OutputFile[] | undefined;
  /** Memoises `files` for `unit` under `key`, with `extra` (JSON data) for a later build's `last`. */
  set(unit: string, key: string, files: OutputFile[], extra?: unknown): void;
  /**
   * The entry `unit` has whatever its key (the last build's, until `set` replaces it): what a unit whose
   * inputs changed can reuse parts of. Its `extra` is whatever was set with it, unchecked.
   */
  last?(unit: string): { files: OutputFile[]; extra?: unknown } | undefined;
  /** What `unit` kept with `keep` in the last build (structured-clone data), if the cache has it. */
  recall?(unit: string): unknown;
  /** Keeps `value` (structured-clone data) for the next build's `recall`, in place of the last one. */
  keep?(unit: string, value: unknown): void;
}

/** What emitters may know besides the model. Emitters never touch the file system themselves. */
export interface EmitContext {
  /** The text of a file currently in the output root, if any (to carry package versions forward). */
  readExisting(path: string): string | undefined;
  /** A file currently in the output root, if any, to read in ranges (else `readExisting` is read). */
  openExisting?(path: string): ExistingFile | undefined;
  /**
   * Where an emitter may write a file of tens of megabytes piece by piece, so that it is never held
   * whole (the files it returns then say `sunk`); without it, the emitter returns the file's bytes.
   */
  openSink?(path: string): OutputSink;
  /** Optional memo of expensive units; emitters must produce the same files with or without it. */
  cache?: EmitCache;
}

/** Every emitter has this signature: a pure function from the model to files. */
export type Emitter = (model: Catalogue, context: EmitContext) => OutputFile[] | Promise<OutputFile[]>;

/** Deterministic JSON: two-space indent, trailing newline (key order is fixed by construction). */
export function jsonFile(path: string, value: unknown): OutputFile {
  return { path, contents: `${JSON.stringify(value, null, 2)}\n` };
}
