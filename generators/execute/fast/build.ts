import { join } from 'node:path';
import type { OutputFile } from '../../emit/context.js';
import { emitJsonSchemasOf } from '../../emit/json-schema.js';
import { type CatalogueSourceFile, loadCatalogueFromSources } from '../../load/index.js';
import type { Catalogue } from '../../model.js';
import { knownDigests } from '../../model-digest.js';
import { openIfExists, readIfExists } from '../../shared/fs.js';
import type { BuildResult } from '../executor.js';
import { fileSystemSyncer } from '../file-system-sync.js';
import { openStagedSink } from '../stage-on-thread.js';
import { type FileStat, type FileStats, type Staging, startStaging, WriteFailure } from '../write.js';
import type { BuildCatalogueOptions } from './build-options.js';
import { BuildWork } from './build-work.js';
import type { FastContext } from './emit-context.js';
import {
  DOCUMENT_EMITTERS,
  likelyEdit,
  openPool,
  POOL_MIN_EVENTS,
  prestartPool,
  runTasks,
  TaskFailure,
  type TaskResult,
} from './emit-lanes.js';
import type { EmitPool, EmitTask } from './emit-pool.js';
import { fastEmitters, type NamedFastEmitter } from './emitters.js';
import { type BuildState, STATE_DIR } from './state-file.js';
import { packCatalogue } from './transfer.js';

/** The outcome of a build (never `up-to-date`: deciding that is the fast executor's plan). */
export type { BuildResult } from '../executor.js';

/** Options of `buildCatalogue`. */
export type { BuildCatalogueOptions } from './build-options.js';
/**
 * Loads, emits and commits. Nothing in the output changes unless the whole catalogue loads, every
 * emitter succeeds and every file could be staged; the switch itself is atomic (see write.ts). Each
 * group package is staged as it is generated, so memory does not grow with the output's size. With
 * `workers`, the emitters and the group packages to generate run on a pool of threads (see
 * emit-pool.ts); the output is the same byte for byte, and it is staged here, one batch at a time.
 */
export async function buildCatalogue(
  sources: CatalogueSourceFile[],
  outDir: string,
  options: BuildCatalogueOptions = {},
): Promise<BuildResult> {
  // The shell that syncs a bulk build's staged files, forked while the process is small (see
  // `FileSystemSyncer`). An edit stages too few files to use it (`makeDurable`), and its fork would
  // cost more than the edit saves (decision 0001). A rebuild that turns out to be bulk starts it at
  // its first sync.
  if (!likelyEdit(options)) fileSystemSyncer().start();
  // The pool's threads, started before the load (`prestartPool`), opened or closed once the work is known.
  const threads = { pool: prestartPool(sources, outDir, options) };
  const emitters = fastEmitters(options.off ?? new Set());
  const loaded = loadCatalogueFromSources(sources, options.load);
  if (!loaded.ok) {
    await threads.pool?.close();
    return { kind: 'problems', problems: loaded.problems };
  }
  const { catalogue } = loaded;
  const staging = startStaging(outDir);
  const context: FastContext = {
    readExisting: (path: string) => readIfExists(join(outDir, path)),
    openExisting: (path: string) => openIfExists(join(outDir, path)),
    // The catalogue documents go to the staging folder as they are made, never held whole.
    openSink: (path: string) => openStagedSink(staging.target, path),
    ...(options.cache ? { cache: options.cache } : {}),
  };
  const state = options.state && options.tool ? options.state : undefined;
  const untouched = state ? options.untouchedAreas : undefined;
  const work = new BuildWork(catalogue, context, staging, outDir, options.tool, state, untouched);
  try {
    work.plan(emitters, threads.pool);
    if (work.schemasOf) {
      // The schemas of the events the build does not keep, made by the pure emitter as they are.
      const schemas: OutputFile[] = emitJsonSchemasOf(catalogue, work.schemasOf);
      await staging.add(schemas);
    }
    await settlePool(threads, work, catalogue, staging, outDir, options);
    await runWork(work, emitters, catalogue, context, staging, threads.pool);
  } catch (error) {
    // No thread may still be writing into the staging folder when it is discarded.
    await threads.pool?.close();
    staging.abort();
    return failureOf(error);
  } finally {
    await threads.pool?.close();
  }
  return commitBuild(staging, work, catalogue, options);
}

/**
 * Opens, keeps or closes the pool for the work: threads only when there are enough events to spread,
 * and given the model packed once, with the digests computed so far and the staging target.
 */
async function settlePool(
  threads: { pool: EmitPool | undefined },
  work: BuildWork,
  catalogue: Catalogue,
  staging: Staging,
  outDir: string,
  options: BuildCatalogueOptions,
): Promise<void> {
  const minEvents = options.workers?.minEvents ?? POOL_MIN_EVENTS;
  // The work to spread: each event of a group to generate, and each event again for the catalogue
  // documents, which every build that gets this far writes (an edit of one group still writes
  // them, beside that group).
  const documentEvents = Object.keys(catalogue.events).length;
  const groupEvents = work.groupEvents();
  // An edit (few groups to generate) of a catalogue built before with the cache writes its documents
  // here too: they copy every entry the edit left alone (document-text.ts), cheaper than shipping the
  // model to a thread. Generating the edit's groups on a thread meanwhile was slower still (decision
  // 0001): the thread's start and heap cost more than the one group it took off this one.
  const fewGroups = groupEvents < minEvents / 2;
  const documentsCopy =
    work.state !== undefined && options.cache?.recall !== undefined && !options.off?.has('document-copy');
  const size =
    options.workers && documentEvents + groupEvents >= minEvents && !(fewGroups && documentsCopy)
      ? options.workers.threads
      : 0;
  if (size === 0) {
    await threads.pool?.close();
    threads.pool = undefined;
    return;
  }
  const packed = packCatalogue(catalogue);
  threads.pool ??= openPool(1, outDir, options, packed.bytes);
  // The digests the group units computed, so that the documents' thread does not compute them again;
  // the staging target, so that each thread stages its own files.
  threads.pool.provide(packed, { digests: knownDigests(catalogue), staging: staging.target });
  // A thread for the groups too when there are enough of them to pay for its start; a few groups
  // (an edit) are generated here, while the documents are written on the pool's thread.
  if (!fewGroups) threads.pool.grow(size);
}

/** Runs the tasks, on the pool or here, and stages their files as they come. */
async function runWork(
  work: BuildWork,
  emitters: readonly NamedFastEmitter[],
  catalogue: Catalogue,
  context: FastContext,
  staging: Staging,
  pool: EmitPool | undefined,
): Promise<void> {
  // With one thread (few groups, and documents that cannot copy), it writes the two documents, the
  // longest tasks, and this thread the rest meanwhile; the pool's tasks go first, so that this
  // thread's own work does not hold them back.
  const shared = pool !== undefined && pool.size > 1;
  // Groups left for later run here unless the pool takes them all: their units are needed now.
  if (work.later.size > 0 && !shared) work.takeUnits();
  const toPool = (task: EmitTask) =>
    pool !== undefined && (shared || (task.kind === 'emitter' && DOCUMENT_EMITTERS.has(task.name)));
  const tasks = [...work.tasks].sort((a, b) => Number(toPool(b)) - Number(toPool(a)));
  // On a thread, a task's files are staged there: only their paths and stats come back here.
  const run = async (task: EmitTask): Promise<TaskResult> => {
    if (toPool(task)) return { staged: await pool!.stage(task) };
    const files =
      task.kind === 'group'
        ? await work.generated.get(task.slug)!.files()
        : await emitters.find((emitter) => emitter.name === task.name)!.emit(catalogue, context);
    return { files };
  };
  const stage = async (result: TaskResult) =>
    'staged' in result ? staging.addStaged(result.staged) : staging.add(result.files);
  // Two tasks per thread in flight: a thread never waits while this one stages the last result (and
  // one more for the tasks run here). The catalogue-wide tasks run on the first thread only: each gets
  // a lane of its own, or they took every lane at the start and the other threads had no group to
  // take.
  const firstThreadOnly = shared ? tasks.filter((task) => task.kind !== 'group').length : 0;
  const lanes = pool ? 2 * pool.size + (shared ? 0 : 1) + firstThreadOnly : 1;
  await runTasks(tasks, run, stage, lanes, async () => {
    if (work.later.size > 0 && shared) work.takeUnits();
    await staging.add(work.packageJsons);
  });
}

/** The build's outcome for an error of its tasks or its staging. */
function failureOf(error: unknown): BuildResult {
  if (error instanceof WriteFailure) return { kind: 'write-failed', failure: error };
  const failed = error instanceof TaskFailure ? error : undefined;
  const task = failed?.task;
  return {
    kind: 'emitter-failed',
    emitter: task?.kind === 'emitter' ? task.name : 'group-packages',
    error: failed ? failed.cause : error,
  };
}

/** Commits what was staged and kept, with the build state sealed beside it. */
async function commitBuild(
  staging: Staging,
  work: BuildWork,
  catalogue: Catalogue,
  options: BuildCatalogueOptions,
): Promise<BuildResult> {
  const { state, untouched, units } = work;
  try {
    const report = await staging.commit({
      ...(options.previousAreas ? { previousAreas: options.previousAreas } : {}),
      ...(options.previousFiles ? { previousFiles: options.previousFiles } : {}),
      ...(options.onReaders ? { onReaders: options.onReaders } : {}),
      ...(options.seal
        ? {
            seal: (stats: ReadonlyMap<string, FileStat>, keptBelow: ReadonlySet<string>) =>
              options.seal!(stats, sortedUnits(units), keptBelow),
            sealFolder: STATE_DIR,
          }
        : {}),
      ...(untouched ? { settle: settleable(state!, untouched) } : {}),
    });
    return { kind: 'built', catalogue, report };
  } catch (error) {
    if (error instanceof WriteFailure) return { kind: 'write-failed', failure: error };
    throw error;
  }
}

/**
 * The recorded folders with files below their top, none of whose folders changed since the last build:
 * those the commit may find produced exactly as recorded (`CommitOptions.settle`).
 */
function settleable(
  state: BuildState,
  untouched: ReadonlySet<string>,
): Map<string, (files: FileStats) => boolean> {
  const settle = new Map<string, (files: FileStats) => boolean>();
  for (const [name, area] of state.areas) {
    if (untouched.has(name) && area.belowCount > 0) settle.set(name, (files) => area.isBelow(files));
  }
  return settle;
}

function sortedUnits(units: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = Object.create(null);
  for (const slug of Object.keys(units).sort()) sorted[slug] = units[slug]!;
  return sorted;
}
