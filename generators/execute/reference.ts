import { join } from 'node:path';
import { EMITTERS } from '../emit/index.js';
import { loadCatalogueFromSources, readCatalogueSources } from '../load/index.js';
import { readIfExists } from '../shared/fs.js';
import type { BuildRequest, BuildResult, Executor } from './executor.js';
import { outputMarkerFile } from './output-folder.js';
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
  const loaded = loadCatalogueFromSources(readCatalogueSources(request.catalogueDir));
  if (!loaded.ok) return { kind: 'problems', problems: loaded.problems };
  const { catalogue } = loaded;
  // The output folder's marker: every build makes it, so the folder is eventry's from its first commit.
  const files = [outputMarkerFile()];
  const context = { readExisting: (path: string) => readIfExists(join(request.outDir, path)) };
  for (const emitter of EMITTERS) {
    try {
      files.push(...(await emitter.emit(catalogue, context)));
    } catch (error) {
      return { kind: 'emitter-failed', emitter: emitter.name, error };
    }
  }
  try {
    const report = await commitOutputs(request.outDir, files, {
      ...(request.onReaders ? { onReaders: request.onReaders } : {}),
    });
    return { kind: 'built', catalogue, report };
  } catch (error) {
    if (error instanceof WriteFailure) return { kind: 'write-failed', failure: error };
    throw error;
  }
}
