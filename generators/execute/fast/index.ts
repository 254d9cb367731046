import type { BuildRequest, BuildResult, Executor } from '../executor.js';
import { markBuildOutput } from '../output-folder.js';
import { planBuild, stampFolders } from './state.js';
import { type BuildState, isRecorded, sealState, stateFile } from './state-file.js';
import type { FastTwin } from './twins.js';

export { FAST_TWINS, type FastTwin } from './twins.js';

/** How the fast executor may speed a build up. */
export interface FastOptions {
  /** false: no cache of parsed files, models or generated units between builds. */
  cache?: boolean;
  /** Threads for the emitters (0: all on this thread); used only when enough events are to be generated. */
  threads: number;
  /** Use the threads whatever the number of events (for tests and measurements). */
  anySize?: boolean;
  /**
   * Twins turned off, for measuring what each one saves (`npm run bench -- twins`; no CLI option sets
   * it): the output is the same.
   */
  off?: readonly FastTwin[];
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
  const off = new Set(options.off);
  // Without the bulk sync every staged file is fsynced (`makeDurable`'s fallback).
  if (off.has('bulk-sync')) (await import('../file-system-sync.js')).fileSystemSyncer().close();
  const quick = !off.has('quick-plan');
  const plan = planBuild(catalogueDir, outDir, request.force, quick);
  if (plan.upToDate) {
    markBuildOutput(outDir);
    return { kind: 'up-to-date', fileCount: plan.fileCount };
  }
  // Only a real build loads the loader, the emitters and ajv: the no-op above stays free of them.
  const { buildCatalogue } = await import('./build.js');
  const { FastLoad, ModelSnapshot, ParseCache } = await import('./load/index.js');
  const { createDiskCache } = await import('./emit-cache.js');
  const { cacheWithout } = await import('./twins.js');
  const { projectCacheDir } = await import('../project-cache.js');
  const cacheDir = options.cache === false ? undefined : projectCacheDir(catalogueDir);
  const cache = cacheDir ? cacheWithout(createDiskCache(cacheDir, plan.tool), off) : undefined;
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
      threads: off.has('threads') ? 0 : options.threads,
      ...(cacheDir ? { cacheDir } : {}),
      ...(options.anySize ? { minEvents: 0 } : {}),
    },
    ...(plan.untouchedAreas ? { untouchedAreas: plan.untouchedAreas } : {}),
    ...(off.size > 0 ? { off } : {}),
  });
  if (result.kind === 'built' && sealed && quick) {
    const { folderTimes, unchanged } = plan;
    const { touched } = result.report;
    const known =
      folderTimes && unchanged ? { folderTimes, unchanged, touched, keptBelow: sealed.keptBelow } : undefined;
    stampFolders(outDir, plan.foldersRecord, sealed.state, plan.digests, known);
  }
  return result.kind === 'built' ? { ...result, sources: plan.sources } : result;
}
