import { join } from 'node:path';
import type { EmitCache, OutputFile } from '../emit/context.js';
import { EMITTERS } from '../emit/index.js';
import { type CatalogueProblem, type CatalogueSourceFile, loadCatalogueFromSources } from '../load/index.js';
import type { Catalogue } from '../model.js';
import { readIfExists } from '../shared/fs.js';
import { type CommitOptions, commitOutputs, WriteFailure, type WriteReport } from './write.js';

/** The outcome of a build: the problems that stopped it, or what it wrote. */
export type BuildResult =
  | { ok: false; problems: CatalogueProblem[] }
  | { ok: false; emitterError: { emitter: string; error: unknown } }
  | { ok: false; writeError: WriteFailure }
  | { ok: true; catalogue: Catalogue; files: OutputFile[]; report: WriteReport };

/** Options of `buildCatalogue`: the writer's (last build's files, build state) and the emit cache. */
export interface BuildCatalogueOptions extends CommitOptions {
  cache?: EmitCache;
}

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
 * Loads, emits and commits. Nothing in the output changes unless the whole catalogue loads, every
 * emitter succeeds and every file could be staged; the switch itself is atomic (see write.ts).
 */
export async function buildCatalogue(
  sources: CatalogueSourceFile[],
  outDir: string,
  options: BuildCatalogueOptions = {},
): Promise<BuildResult> {
  const loaded = loadCatalogueFromSources(sources);
  if (!loaded.ok) return loaded;
  const { cache, ...commit } = options;
  const files = await emitAll(loaded.catalogue, outDir, cache);
  if (!Array.isArray(files)) return { ok: false, emitterError: files };
  try {
    const report = await commitOutputs(outDir, files, commit);
    return { ok: true, catalogue: loaded.catalogue, files, report };
  } catch (error) {
    if (error instanceof WriteFailure) return { ok: false, writeError: error };
    throw error;
  }
}
