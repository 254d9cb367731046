import type { LoadAccelerator } from '../../../load/accelerator.js';
import { CONFIG_FILE } from '../../../load/index.js';
import type { CatalogueProblem } from '../../../load/problem.js';
import type { CatalogueSourceFile } from '../../../load/sources.js';
import { type ParsedFile, type PlainYaml, YamlSource } from '../../../load/yaml-source.js';
import type { Catalogue } from '../../../model.js';
import { type IncrementalParse, loadFromSnapshot, snapshotOf } from './incremental.js';
import { loadBeside } from './load-beside.js';
import type { ModelSnapshot } from './model-snapshot.js';
import type { ParseCache } from './parse-cache.js';
import { readPlainYaml } from './yaml-fast.js';

/** Which of the loader's speed twins a `FastLoad` uses (see docs/decisions/0010-load-accelerators.md). */
export interface FastLoadOptions {
  /** `false` parses every file with `yaml`, as the plain path does (the oracle tests' other half). */
  fastYaml?: boolean;
  /**
   * Keep every plain parse by its text (in this map, or a new one): loads of catalogues with files in
   * common (the two sides of a diff, a release history) read each such file once.
   */
  memo?: boolean | Map<string, PlainYaml>;
  /** The parses of earlier processes (`eventry build`'s, on disk); saved when a full load has read its files. */
  cache?: ParseCache;
  /**
   * The model of the last build (on disk): when a few files changed, only what they define and what
   * builds on it is resolved again (`incremental.ts`); a full load keeps its model there.
   */
  snapshot?: ModelSnapshot;
  /**
   * Start from the last model this accelerator loaded whole: the next catalogue, a few files apart
   * (the other side of a diff), resolves only what those files change and shares every other
   * definition's object with it (`loadBeside`).
   */
  beside?: boolean;
}

/** The loader's accelerator for the CLI and the fast executor: the twins `options` names, behind one seam. */
export class FastLoad implements LoadAccelerator {
  private readonly memo: Map<string, PlainYaml> | undefined;
  private last: { files: readonly CatalogueSourceFile[]; catalogue: Catalogue } | undefined;

  constructor(private readonly options: FastLoadOptions = {}) {
    this.memo = options.memo instanceof Map ? options.memo : options.memo ? new Map() : undefined;
  }

  /** The model the last load beside, or the build's snapshot, gives for `files`; undefined otherwise. */
  reuse(files: readonly CatalogueSourceFile[]): Catalogue | undefined {
    if (this.last) {
      const parse = (file: CatalogueSourceFile) => this.parse(file);
      const beside = loadBeside(files, CONFIG_FILE, this.last, { parse, cached: parse });
      if (beside) return beside;
    }
    const snapshot = this.options.snapshot;
    const stored = snapshot?.read();
    if (!snapshot || !stored) return undefined;
    // The changed files are parsed without the parse cache: reading its file costs every file's entry.
    const parsing: IncrementalParse = {
      parse: (file) => this.parseWith(file, undefined),
      cached: (file) => this.parseWith(file, this.options.cache),
    };
    const loaded = loadFromSnapshot(files, CONFIG_FILE, stored, parsing);
    if (!loaded) return undefined;
    snapshot.write(loaded.next);
    return loaded.catalogue;
  }

  /** A plain file read by js-yaml's event parser (or the memo, or the cache); any other by `yaml`. */
  parse(file: CatalogueSourceFile): ParsedFile {
    return this.parseWith(file, this.options.cache);
  }

  /** Skips the check of a text the parse cache saw pass it, and remembers one that passes. */
  checkShape(file: CatalogueSourceFile, check: () => CatalogueProblem[]): CatalogueProblem[] {
    const cache = this.options.cache;
    if (cache?.shapeChecked(file.text)) return [];
    const problems = check();
    if (problems.length === 0) cache?.passedShapeCheck(file.text);
    return problems;
  }

  /** Saves the parse cache, and keeps the model for the snapshot and the next load beside it. */
  loaded(files: readonly CatalogueSourceFile[], catalogue: Catalogue | undefined): void {
    this.options.cache?.save();
    if (!catalogue) return;
    this.options.snapshot?.write(snapshotOf(catalogue, files));
    if (this.options.beside) this.last = { files, catalogue };
  }

  private parseWith(file: CatalogueSourceFile, cache: ParseCache | undefined): ParsedFile {
    if (this.options.fastYaml === false) return YamlSource.parse(file);
    // A file the fast path declines (anything outside the plain subset, or any error) is read by `yaml`.
    let plain = this.memo?.get(file.text);
    if (plain === undefined) {
      plain = cache ? cache.read(file.text, readPlainYaml) : readPlainYaml(file.text);
      if (plain) this.memo?.set(file.text, plain);
    }
    return plain ? { source: YamlSource.fromPlain(file, plain), problems: [] } : YamlSource.parse(file);
  }
}
