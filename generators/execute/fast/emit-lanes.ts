import type { EmitterName } from '../../emit/index.js';
import type { CatalogueSourceFile } from '../../load/index.js';
import { type StagedFile, WriteFailure, type WriterFile } from '../write.js';
import type { BuildCatalogueOptions } from './build-options.js';
import { type EmitPool, type EmitTask, openEmitPool } from './emit-pool.js';

// The fast build's thread lanes: when to start the emit pool, and how its tasks run and fail.

/**
 * Threads started before the catalogue is loaded, so that they load the toolkit meanwhile, when the
 * sources look like enough events for the pool (by their size) and this is not a rebuild: all of them
 * when there is no build state (a first build generates every group), else one (for the documents);
 * all of them too when `EVENTRY_BUILD_THREADS` asks for threads whatever the size.
 */
export function prestartPool(
  sources: readonly CatalogueSourceFile[],
  outDir: string,
  options: BuildCatalogueOptions,
): EmitPool | undefined {
  if (!options.workers || options.workers.threads === 0) return undefined;
  let bytes = 0;
  for (const source of sources) bytes += source.text.length;
  const minEvents = options.workers.minEvents ?? POOL_MIN_EVENTS;
  if (minEvents === 0)
    return openPool(options.workers.threads, outDir, options, bytes * MODEL_PER_SOURCE_BYTE);
  if (bytes / SOURCE_BYTES_PER_EVENT < minEvents) return undefined;
  // An edit needs no thread (see `buildCatalogue`); when it does need them, they start after the load.
  if (likelyEdit(options)) return undefined;
  // No build state: every group is generated, on every thread; each loads the toolkit meanwhile.
  const threads = options.state?.units === undefined ? options.workers.threads : 1;
  return openPool(threads, outDir, options, bytes * MODEL_PER_SOURCE_BYTE);
}

/** A rebuild over the last build's state and cache: most likely an edit, which regenerates a few groups. */
export function likelyEdit(options: BuildCatalogueOptions): boolean {
  return options.state?.units !== undefined && options.cache?.recall !== undefined;
}

/** A pool of `size` threads for a build into `outDir`, sized for a model of `modelBytes`. */
export function openPool(
  size: number,
  outDir: string,
  options: BuildCatalogueOptions,
  modelBytes: number,
): EmitPool {
  const { cacheDir } = options.workers!;
  return openEmitPool(size, {
    outDir,
    modelBytes,
    ...(cacheDir && options.tool ? { cache: { dir: cacheDir, tool: options.tool } } : {}),
    ...(options.off?.size ? { off: [...options.off] } : {}),
  });
}

/** A task's files, or (staged on a pool thread) their paths and stats. */
export type TaskResult = { files: WriterFile[] } | { staged: StagedFile[] };

/** The catalogue-wide documents: the longest emitter tasks, and the ones that grow with the catalogue. */
export const DOCUMENT_EMITTERS: ReadonlySet<EmitterName> = new Set<EmitterName>(['openapi', 'asyncapi']);

/** Catalogue source per event, about (decision 0001 has the figures behind it). */
const SOURCE_BYTES_PER_EVENT = 300;
/** The packed model per byte of source, about; a thread sized too small is replaced. */
const MODEL_PER_SOURCE_BYTE = 4;

/**
 * Below this much work (events to generate, counted once for their group and once for the documents),
 * starting threads costs more than it saves: each thread loads the toolkit and unpacks the model
 * (decision 0001 has the measurements).
 */
export const POOL_MIN_EVENTS = 1000;

/** An emitter task that threw: the first in task order, whichever finished first. */
export class TaskFailure extends Error {
  constructor(
    readonly task: EmitTask,
    cause: unknown,
  ) {
    super(`emitter task failed`, { cause });
  }
}

/**
 * Runs `tasks`, `lanes` at a time, and hands each result to `stage` one at a time (staging is a
 * sequence of batches). Stops starting tasks at the first failure; once the running ones settle it
 * throws the `WriteFailure` if staging failed, else a `TaskFailure` for the earliest failed task.
 */
export async function runTasks<T>(
  tasks: readonly EmitTask[],
  run: (task: EmitTask) => Promise<T>,
  stage: (files: T) => Promise<void>,
  lanes: number,
  stageFirst?: () => Promise<void>,
): Promise<void> {
  let next = 0;
  const failures: { index: number; error: unknown }[] = [];
  // Staged before any task's files, as the tasks start (index -1: no task's).
  let staged: Promise<void> = stageFirst
    ? stageFirst().catch((error: unknown) => {
        failures.push({ index: -1, error });
      })
    : Promise.resolve();
  const lane = async () => {
    while (failures.length === 0 && next < tasks.length) {
      const index = next++;
      try {
        const files = await run(tasks[index]!);
        const turn = staged.then(() => (failures.length === 0 ? stage(files) : undefined));
        staged = turn.catch(() => undefined);
        await turn;
      } catch (error) {
        failures.push({ index, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, tasks.length) }, lane));
  await staged;
  if (failures.length === 0) return;
  const write = failures.find((failure) => failure.error instanceof WriteFailure);
  if (write) throw write.error;
  const first = failures.reduce((a, b) => (b.index < a.index ? b : a));
  if (first.index === -1) throw first.error;
  throw new TaskFailure(tasks[first.index]!, first.error);
}
