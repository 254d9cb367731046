import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { openIfExists, readIfExists } from '../../shared/fs.js';
import { openStagedSink, stageOnThread } from '../stage-on-thread.js';
import { type StagingTarget, WriteFailure, type WriterFile } from '../write.js';
import { createDiskCache } from './emit-cache.js';
import type { FastContext } from './emit-context.js';
import type { EmitTask, ModelMessage, TaskMessage, WorkerData, WorkerReply } from './emit-pool.js';
import { fastEmitters } from './emitters.js';
import { groupPackageUnits } from './group-units.js';
import { ThreadCatalogue } from './transfer.js';
import { cacheWithout } from './twins.js';

// One thread of the build's pool (see emit-pool.ts): started before the model is known, it loads the
// toolkit, takes the model it is then sent (its first message; a group's events are unpacked when a
// task first needs them, and each task gets plain data: the whole model, or its group's part), and runs the tasks it is sent, one at a time, with the same emitters and the same cache
// the build's own thread would use.

const data = workerData as WorkerData;
const off = new Set(data.off);
const emitters = fastEmitters(off);
const cache = data.cache ? cacheWithout(createDiskCache(data.cache.dir, data.cache.tool), off) : undefined;
let model: ThreadCatalogue | undefined;
let staging: StagingTarget | undefined;
const context: FastContext = {
  readExisting: (path) => readIfExists(join(data.outDir, path)),
  openExisting: (path) => openIfExists(join(data.outDir, path)),
  ...(cache ? { cache } : {}),
};

// For a task run with `stage`: the catalogue documents go to the staging folder as they are made.
const staged: FastContext = { ...context, openSink: (path) => openStagedSink(staging!, path) };

async function runTask(model: ThreadCatalogue, task: EmitTask, context: FastContext): Promise<WriterFile[]> {
  if (task.kind === 'group') {
    const [unit] = groupPackageUnits(model.ofGroup(task.slug), context, new Set([task.slug]));
    if (!unit) throw new Error(`no group ${task.slug} in the model the worker was given`);
    return unit.files();
  }
  const emitter = emitters.find((candidate) => candidate.name === task.name);
  if (!emitter) throw new Error(`no emitter ${task.name}`);
  return emitter.emit(model.whole(), context);
}

// The folders this thread made and saw in the output, kept from one staged task to the next.
const folders = {};

parentPort!.on('message', (message: TaskMessage | ModelMessage) => {
  if ('model' in message) {
    model = new ThreadCatalogue(message.model, message.digests);
    staging = message.staging;
    return;
  }
  // The pool sends tasks only after the model, and messages arrive in order.
  runTask(model!, message.task, message.stage ? staged : context)
    .then(
      (files): WorkerReply =>
        // With `stage`, the contents stay on this thread: only the paths and stats go back.
        message.stage
          ? { id: message.id, staged: stageOnThread(staging!, files, folders) }
          : { id: message.id, files },
    )
    .catch((error: unknown): WorkerReply => {
      if (error instanceof WriteFailure) {
        const { path, code, cause } = error;
        const text = cause instanceof Error ? cause.message : error.message;
        return { id: message.id, writeError: { path, code, message: text } };
      }
      return {
        id: message.id,
        error:
          error instanceof Error
            ? { message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
            : { message: String(error) },
      };
    })
    .then((reply) => parentPort!.postMessage(reply));
});
