import type { Worker } from 'node:worker_threads';
import type { EmitterName } from '../../emit/index.js';
import type { Catalogue } from '../../model.js';
import type { ModelDigests } from '../../model-digest.js';
import { startWorker } from '../../shared/worker.js';
import { type StagedFile, type StagingTarget, WriteFailure, type WriterFile } from '../write.js';
import { type PackedCatalogue, packCatalogue } from './transfer.js';
import type { FastTwin } from './twins.js';

/** One piece of a build a worker thread can do: a catalogue-wide emitter, or one group's package files. */
export type EmitTask = { kind: 'emitter'; name: EmitterName } | { kind: 'group'; slug: string };

/** What a worker is started with; the model follows as its first message (`ModelMessage`). */
export interface WorkerData {
  outDir: string;
  /** The build's disk cache (`createDiskCache`), opened again in each worker. */
  cache?: { dir: string; tool: string };
  /** The twins the build turned off (`FastOptions.off`). */
  off?: FastTwin[];
}

/**
 * The first message a worker gets: the model its tasks read, the digests of it already computed, and
 * the build's transaction, for `stage` tasks (each thread writes its own files there).
 */
export interface ModelMessage {
  model: PackedCatalogue;
  digests?: ModelDigests;
  staging?: StagingTarget;
}

/** A task as posted to a thread: `stage` asks it to stage the files itself and answer with their stats. */
export interface TaskMessage {
  id: number;
  task: EmitTask;
  stage: boolean;
}

/** A worker's answer to one task. */
export type WorkerReply =
  | { id: number; files: WriterFile[] }
  | { id: number; staged: StagedFile[] }
  | { id: number; writeError: { path: string; code: string; message: string } }
  | { id: number; error: { message: string; stack?: string } };

/** Worker threads that run `EmitTask`s on one model, each task on whichever thread is free. */
export interface EmitPool {
  /** Threads started so far. */
  readonly size: number;
  /**
   * Gives the threads the model (once), with what `modelDigest` knows of it and the build's staging
   * target (for `stage`); tasks run from then on.
   */
  provide(model: PackedCatalogue, extras?: { digests?: ModelDigests; staging?: StagingTarget }): void;
  /** Starts more threads, up to `size` in all. */
  grow(size: number): void;
  run(task: EmitTask): Promise<WriterFile[]>;
  /**
   * Runs `task` and stages its files on the thread (the model was provided with `staging`), so their
   * contents never cross to this one; a file the file system refuses rejects with a `WriteFailure`.
   */
  stage(task: EmitTask): Promise<StagedFile[]>;
  /** Stops every thread (pending tasks are rejected). */
  close(): Promise<void>;
}

/**
 * Each thread's heap: V8 lets an idle-looking heap grow far past what is live, and the ajv code
 * generation leaves a lot of short-lived garbage, so default heaps are too large; a small young
 * generation and an old generation of a few times the model's size keep the process near what is live.
 * A thread generating group packages holds at most the model (the groups it generated, unpacked), ajv
 * and one group's files; the first thread also writes the catalogue-wide documents, which grow with the
 * catalogue, and on an edit holds the last build's text of them beside, so it gets more (see
 * docs/decisions/0005).
 */
function heapLimits(
  modelBytes: number,
  documents: boolean,
): { maxYoungGenerationSizeMb: number; maxOldGenerationSizeMb: number } {
  const modelMiB = modelBytes / 2 ** 20;
  const old = documents ? 128 + 24 * modelMiB : 96 + 6 * modelMiB;
  return { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: Math.ceil(old) };
}

/** The pool's thread: its compiled module, run from `dist/` under vitest too (`startWorker`). */
const WORKER_MODULE = 'execute/fast/emit-worker';

/** Starts `size` threads on `model` (`openEmitPool`, then `provide`). */
export function startEmitPool(
  model: Catalogue,
  size: number,
  options: { outDir: string; cache?: { dir: string; tool: string }; staging?: StagingTarget },
): EmitPool {
  const { staging, ...rest } = options;
  const packed = packCatalogue(model);
  const pool = openEmitPool(size, { ...rest, modelBytes: packed.bytes });
  pool.provide(packed, staging ? { staging } : {});
  return pool;
}

/**
 * Starts `size` threads before the model is known, so that they load the toolkit while this thread
 * loads the catalogue; `provide` then gives them the model, packed once into shared memory
 * (`transfer.ts`) with each group's events apart, so that each thread unpacks only the groups it
 * reads. A thread's heap is sized for a model of `modelBytes` packed (an estimate until then): one
 * started for a smaller model than the one provided is replaced before it runs anything. A thread runs
 * one task at a time and the pool hands the next queued task to the first thread that frees up
 * (document tasks only to the first thread).
 */
export function openEmitPool(
  size: number,
  options: { outDir: string; cache?: { dir: string; tool: string }; modelBytes: number },
): EmitPool {
  return new ThreadPool(size, options);
}

/** `EmitPool` over worker threads (see `openEmitPool`). */
class ThreadPool implements EmitPool {
  private readonly data: WorkerData;
  private readonly pending = new Map<
    number,
    { resolve: (result: unknown) => void; reject: (e: Error) => void }
  >();
  private readonly queue: TaskMessage[] = [];
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, number>();
  private readonly workers: Worker[] = [];
  private readonly sizedFor = new Map<Worker, number>();
  private model: ModelMessage | undefined;
  private nextId = 0;
  private broken: Error | undefined;

  constructor(
    size: number,
    private readonly options: { outDir: string; cache?: { dir: string; tool: string }; modelBytes: number },
  ) {
    this.data = { outDir: options.outDir, ...(options.cache ? { cache: options.cache } : {}) };
    this.grow(size);
  }

  get size(): number {
    return this.workers.length;
  }

  provide(packed: PackedCatalogue, extras: { digests?: ModelDigests; staging?: StagingTarget } = {}): void {
    if (this.model) throw new Error('the build worker pool already has its model');
    const message: ModelMessage = { model: packed, ...extras };
    this.model = message;
    const bytes = packed.bytes;
    this.workers.forEach((worker, index) => {
      if (this.sizedFor.get(worker)! >= bytes) {
        worker.postMessage(message);
        return;
      }
      // Its heap was sized for a smaller model: replaced, before it ran anything.
      this.idle.splice(this.idle.indexOf(worker), 1);
      void worker.terminate();
      this.start(index, bytes);
    });
    this.dispatch();
  }

  grow(target: number): void {
    for (let index = this.workers.length; index < target; index++)
      this.start(index, this.model?.model.bytes ?? this.options.modelBytes);
  }

  run(task: EmitTask): Promise<WriterFile[]> {
    return this.post<WriterFile[]>(task, false);
  }

  stage(task: EmitTask): Promise<StagedFile[]> {
    if (!this.model?.staging) return Promise.reject(new Error('the build worker pool has no staging folder'));
    return this.post<StagedFile[]>(task, true);
  }

  async close(): Promise<void> {
    this.broken ??= new Error('the build worker pool was closed');
    this.fail(this.broken);
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }

  /** Hands queued tasks to idle threads, once they have the model. */
  private dispatch(): void {
    if (this.model === undefined) return;
    for (const worker of [...this.idle]) {
      // The catalogue-wide documents go to the first thread only: its heap is sized for them.
      const index = this.queue.findIndex(
        (queued) => worker === this.workers[0] || queued.task.kind === 'group',
      );
      if (index === -1) continue;
      const [message] = this.queue.splice(index, 1);
      this.idle.splice(this.idle.indexOf(worker), 1);
      this.busy.set(worker, message!.id);
      worker.postMessage(message);
    }
  }

  /** Fails every task waiting or queued, and every later one, with `error`. */
  private fail(error: Error): void {
    this.broken ??= error;
    for (const { reject } of this.pending.values()) reject(this.broken);
    this.pending.clear();
    this.queue.length = 0;
  }

  /** Starts the thread at `index`, its heap sized for a model of `modelBytes` packed. */
  private start(index: number, modelBytes: number): void {
    const worker = startWorker(WORKER_MODULE, {
      workerData: this.data,
      resourceLimits: heapLimits(modelBytes, index === 0),
    });
    this.sizedFor.set(worker, modelBytes);
    worker.on('message', (reply: WorkerReply) => this.answered(worker, reply));
    // A thread that dies (out of memory, a bug in the worker script) fails the whole build.
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => {
      if (this.workers[index] === worker && (this.busy.has(worker) || code !== 0))
        this.fail(new Error(`a build worker thread stopped (exit code ${code})`));
    });
    if (this.model) worker.postMessage(this.model);
    this.workers[index] = worker;
    this.idle.push(worker);
  }

  /** Settles the task `worker` answered, and gives it the next one. */
  private answered(worker: Worker, reply: WorkerReply): void {
    this.busy.delete(worker);
    this.idle.push(worker);
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if ('files' in reply) waiting?.resolve(reply.files);
    else if ('staged' in reply) waiting?.resolve(reply.staged);
    else if ('writeError' in reply) {
      const { path, code, message } = reply.writeError;
      waiting?.reject(new WriteFailure(path, code, new Error(message)));
    } else {
      const error = new Error(reply.error.message);
      if (reply.error.stack) error.stack = reply.error.stack;
      waiting?.reject(error);
    }
    this.dispatch();
  }

  private post<T>(task: EmitTask, stage: boolean): Promise<T> {
    if (this.broken) return Promise.reject(this.broken);
    const id = this.nextId++;
    const done = new Promise<T>((resolve, reject) =>
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject }),
    );
    this.queue.push({ id, task, stage });
    this.dispatch();
    return done;
  }
}
