import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { EmitContext, OutputFile } from '../emit/context.js';
import { EMITTERS } from '../emit/index.js';
import { groupPackageUnits } from '../emit/package/index.js';
import type { Catalogue, Group } from '../model.js';
import { readIfExists } from '../shared/fs.js';
import { createDiskCache } from './emit-cache.js';
import type { EmitTask, TaskMessage, WorkerData, WorkerReply } from './emit-pool.js';
import { unpackValue } from './transfer.js';
import { stageOnThread, WriteFailure } from './write.js';

// One thread of the build's pool (see emit-pool.ts): it unpacks the model once, then runs the tasks it is
// sent, one at a time, with the same emitters and the same cache the build's own thread would use.

const data = workerData as WorkerData;
const model = unpackValue<Catalogue>(data.model);
const groups = new Map<string, Group>(model.groups.map((group) => [group.slug, group]));
const context: EmitContext = {
  readExisting: (path) => readIfExists(join(data.outDir, path)),
  ...(data.cache ? { cache: createDiskCache(data.cache.dir, data.cache.tool) } : {}),
};

async function runTask(task: EmitTask): Promise<OutputFile[]> {
  if (task.kind === 'group') {
    const group = groups.get(task.slug);
    if (!group) throw new Error(`no group ${task.slug} in the model the worker was given`);
    const [unit] = groupPackageUnits({ ...model, groups: [group] }, context);
    return unit!.files();
  }
  const emitter = EMITTERS.find((candidate) => candidate.name === task.name);
  if (!emitter) throw new Error(`no emitter ${task.name}`);
  return emitter.emit(model, context);
}

// The folders this thread made and saw in the output, kept from one staged task to the next.
const staged = {};

parentPort!.on('message', (message: TaskMessage) => {
  runTask(message.task)
    .then(
      (files): WorkerReply =>
        // With `stage`, the contents stay on this thread: only the paths and stats go back.
        message.stage
          ? { id: message.id, staged: stageOnThread(data.staging!, files, staged) }
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
