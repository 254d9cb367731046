import type { EmitOptions, OutputFile } from '../emit/context.js';
import { EMITTERS, type EmitterName } from '../emit/index.js';
import { loadCatalogueFromSources, readCatalogueSources } from '../load/index.js';
import type { Catalogue } from '../model.js';
import type { BuildRequest, BuildResult, Executor } from './executor.js';
import { outputMarkerFile } from './output-folder.js';
import { readEmitOptions } from './package-versions.js';
import { commitOutputs, WriteFailure } from './write.js';

/**
 * The plain build, the oracle every other executor is tested against: read the catalogue, load it,
 * run every emitter on the model, and commit the files through the one writer (staged, switched in
 * atomically, what the last build left and this one does not make swept away). No cache, no thread,
 * nothing remembered between builds.
 */
export const referenceExecutor: Executor = {
  name: 'reference',
  build: buildByReference,
};

async function buildByReference(request: BuildRequest): Promise<BuildResult> {
  const sources = readCatalogueSources(request.catalogueDir);
  const loaded = loadCatalogueFromSources(sources);
  if (!loaded.ok) return { kind: 'problems', problems: loaded.problems };
  const { catalogue } = loaded;
  // The output folder's marker: every build makes it, so the folder is eventry's from its first commit.
  const files: OutputFile[] = [outputMarkerFile()];
  const emitted = await emitAll(catalogue, readEmitOptions(catalogue, request.outDir));
  if (!Array.isArray(emitted)) return { kind: 'emitter-failed', ...emitted };
  files.push(...emitted);
  try {
    const report = await commitOutputs(request.outDir, files, {
      ...(request.onReaders ? { onReaders: request.onReaders } : {}),
    });
    return { kind: 'built', catalogue, report, sources };
  } catch (error) {
    if (error instanceof WriteFailure) return { kind: 'write-failed', failure: error };
    throw error;
  }
}

/** Runs every emitter on the model, in order; nothing is written. The files sorted by path, or the failure. */
export async function emitAll(
  catalogue: Catalogue,
  options: EmitOptions,
): Promise<OutputFile[] | { emitter: EmitterName; error: unknown }> {
  const files: OutputFile[] = [];
  for (const emitter of EMITTERS) {
    try {
      files.push(...(await emitter.emit(catalogue, options)));
    } catch (error) {
      return { emitter: emitter.name, error };
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
