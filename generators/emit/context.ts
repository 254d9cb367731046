import type { Catalogue } from '../model.js';
import { generatedNote } from '../schema/generated-note.js';

/** The note every generated file carries; the schema layer owns it, as standalone schemas carry it too. */
export { generatedNote };

/** A file an emitter wants written, path relative to the output root (`packages/`), `/`-separated. */
export interface OutputFile {
  path: string;
  contents: string;
}

/**
 * What an emitter knows besides the model: data the executor read before emitting. Emitters never
 * touch the file system, a cache or a sink: the same model and options give the same files.
 */
export interface EmitOptions {
  /**
   * The version each group package has in the output, by group slug (`eventry version` keeps it
   * there; a package not in the output starts at `INITIAL_VERSION`).
   */
  versions: Readonly<Record<string, string>>;
}

/** Every emitter has this signature: a pure function from the model and its options to files. */
export type Emitter = (model: Catalogue, options: EmitOptions) => OutputFile[] | Promise<OutputFile[]>;

/** Deterministic JSON: two-space indent, trailing newline (key order is fixed by construction). */
export function jsonFile(path: string, value: unknown): OutputFile {
  return { path, contents: `${JSON.stringify(value, null, 2)}\n` };
}
