import type { Catalogue } from '../model.js';
import type { CatalogueProblem } from './problem.js';
import type { CatalogueSourceFile } from './sources.js';
import { type ParsedFile, YamlSource } from './yaml-source.js';

/**
 * The loader's one seam for speed: how a file is parsed, whether a shape check can be skipped, and
 * whether an earlier model can be reused. Every answer must be what the plain path gives
 * (`PLAIN_LOAD`); the oracle tests hold each implementation to it. The implementations live with
 * the fast executor (`execute/fast/load/`); a command takes one from `openLoader`
 * (`execute/fast/loader.ts`) and passes it in.
 */
export interface LoadAccelerator {
  /**
   * The model of `files` (the definition files, sorted by path, the allow-list aside) without a full
   * load, or undefined: then the full load reads them and tells `loaded`.
   */
  reuse(files: readonly CatalogueSourceFile[]): Catalogue | undefined;
  /** One file parsed, as `YamlSource.parse` would (problems and locations alike). */
  parse(file: CatalogueSourceFile): ParsedFile;
  /** The problems `check` finds in this file's parse; a text that passed before may skip it. */
  checkShape(file: CatalogueSourceFile, check: () => CatalogueProblem[]): CatalogueProblem[];
  /** A full load has read every file: `catalogue` is its model, undefined when it had problems. */
  loaded(files: readonly CatalogueSourceFile[], catalogue: Catalogue | undefined): void;
}

/** The plain path: `yaml` parses every file, every check runs, nothing is kept. */
export const PLAIN_LOAD: LoadAccelerator = {
  reuse: () => undefined,
  parse: (file) => YamlSource.parse(file),
  checkShape: (_file, check) => check(),
  loaded: () => {},
};
