import { join } from 'node:path';
import type { EmitCache, OutputFile } from './emit/context.js';
import { EMITTERS } from './emit/index.js';
import { type CatalogueProblem, type CatalogueSourceFile, loadCatalogueFromSources } from './load/index.js';
import type { Catalogue } from './model.js';
import { readIfExists, type WriteReport, writeOutputs } from './write.js';

/** The outcome of a build: the problems that stopped it, or what it wrote. */
export type BuildResult =
  | { ok: false; problems: CatalogueProblem[] }
  | { ok: false; emitterError: { emitter: string; error: unknown } }
  | { ok: true; catalogue: Catalogue; files: OutputFile[]; report: WriteReport };

/** Runs every emitter on the model; nothing is written. */
export async function emitAll(
  catalogue: Catalogue,
  outDir: string,
  cache?: EmitCache,
): Promise<OutputFile[] | { emitter: string; error: unknown }> {
  const context = {
    readExisting: (path: string) => readIfExists(join(outDir, path)),
    ...(cache ? { cache } : {}),
  };
  const files: OutputFile[] = [];
  for (const emitter of EMITTERS) {
    try {
      files.push(...(await emitter.emit(catalogue, context)));
    } catch (error) {
      return { emitter: emitter.name, error };
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * Loads, emits and writes. Nothing is written unless the whole catalogue loads and every emitter
 * succeeds, so a bad catalogue leaves the last good output in place.
 */
export async function buildCatalogue(
  sources: CatalogueSourceFile[],
  outDir: string,
  previousFiles: readonly string[] = [],
  cache?: EmitCache,
): Promise<BuildResult> {
  const loaded = loadCatalogueFromSources(sources);
  if (!loaded.ok) return loaded;
  const files = await emitAll(loaded.catalogue, outDir, cache);
  if (!Array.isArray(files)) return { ok: false, emitterError: files };
  const report = writeOutputs(outDir, files, previousFiles);
  return { ok: true, catalogue: loaded.catalogue, files, report };
}
