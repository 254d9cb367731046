import type { BuildRequest, BuildResult, Executor } from '../executor.js';
import { markBuildOutput } from '../output-folder.js';
import { planBuild, stampFolders } from './state.js';
import { type BuildState, isRecorded, sealState, stateFile } from './state-file.js';

/** How the fast executor may speed a build up. */
export interface FastOptions {
  /** false: no cache of parsed files, models or generated units between builds. */
  cache?: boolean;
  /** Threads for the emitters (0: all on this thread); used only when enough events are to be generated. */
  threads: number;
  /** Use the threads whatever the number of events (for tests and measurements). */
  anySize?: boolean;
}

/**
 * The fast executor: the reference build's output, byte for byte, made with the last build's state
 * (a no-op decided from file stats before the loader is even imported; group packages and schemas
 * whose inputs are unchanged kept as they are), caches of parsed files, models and generated units,
 * threads, and streamed catalogue documents that copy the entries an edit left alone.
 */
export function fastExecutor(options: FastOptions): Executor {
  return { name: 'fast', build: (request) => buildFast(request, options) };
}

async function buildFast(request: BuildRequest, options: FastOptions): Promise<BuildResult> {
  const { catalogueDir, outDir } = request;
  const plan = planBuild(catalogueDir, outDir, request.force);
  if (plan.upToDate) {
    markBuildOutput(outDir);
    return { kind: 'up-to-date', fileCount: plan.fileCount };
  }
  // Only a real build loads the loader, the emitters and ajv: the no-op above stays free of them.
  const { buildCatalogue } = await import('./build.js');
  const { FastLoad, ModelSnapshot, ParseCache } = await import('./load/index.js');
  const { createDiskCache } = await import('./emit-cache.js');
  const { projectCacheDir } = await import('../project-cache.js');
  const cacheDir = options.cache === false ? undefined : projectCacheDir(catalogueDir);
  const cache = cacheDir ? createDiskCache(cacheDir, plan.tool) : undefined;
  // The state this build commits, kept for the folder record (`stampFolders`) rather than read back.
  let sealed: { state: BuildState; keptBelow: ReadonlySet<string> } | undefined;
  const result = await buildCatalogue(plan.sources, outDir, {
    previousAreas: plan.state ? [...plan.state.areas.keys()] : [],
    ...(plan.state ? { previousFiles: isRecorded(plan.state) } : {}),
    ...(request.onReaders ? { onReaders: request.onReaders } : {}),
    seal: (files, units, keptBelow) => {
      const state = sealState(plan.inputHash, files, units, plan.state, keptBelow);
      sealed = { state, keptBelow };
      // Another catalogue or toolkit: the state differs from the one in the output, unread.
      return { ...stateFile(state), changed: plan.state?.inputHash !== plan.inputHash };
    },
    tool: plan.tool,
    ...(plan.state && !request.force ? { state: plan.state } : {}),
    ...(cache ? { cache } : {}),
    load: {
      accelerator: new FastLoad(
        cacheDir
          ? { cache: new ParseCache(cacheDir, plan.tool), snapshot: new ModelSnapshot(cacheDir, plan.tool) }
          : {},
      ),
    },
    workers: {
      threads: options.threads,
      ...(cacheDir ? { cacheDir } : {}),
      ...(options.anySize ? { minEvents: 0 } : {}),
    },
    ...(plan.untouchedAreas ? { untouchedAreas: plan.untouchedAreas } : {}),
  });
  if (result.kind === 'built' && sealed) {
    const { folderTimes, unchanged } = plan;
    const { touched } = result.report;
    const known =
      folderTimes && unchanged ? { folderTimes, unchanged, touched, keptBelow: sealed.keptBelow } : undefined;
    stampFolders(outDir, plan.foldersRecord, sealed.state, plan.digests, known);
  }
  return result.kind === 'built' ? { ...result, sources: plan.sources } : result;
}
