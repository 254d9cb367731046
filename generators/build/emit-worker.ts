import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { adoptDigests } from '../emit/common/model-digest.js';
import type { EmitContext, OutputFile } from '../emit/context.js';
import { EMITTERS } from '../emit/index.js';
import { groupPackageUnits } from '../emit/package/index.js';
import type { Catalogue } from '../model.js';
import { readIfExists } from '../shared/fs.js';
import { createDiskCache } from './emit-cache.js';
import type { EmitTask, ModelMessage, WorkerData, WorkerReply } from './emit-pool.js';
import { unpackValue } from './transfer.js';

// One thread of the build's pool (see emit-pool.ts): started before the model is known, it loads the
// toolkit, unpacks the model it is then sent (its first message), and runs the tasks it is sent, one at a
// time, with the same emitters and the same cache the build's own thread would use.

const data = workerData as WorkerData;
let model: Catalogue | undefined;
const context: EmitContext = {
  readExisting: (path) => readIfExists(join(data.outDir, path)),
  ...(data.cache ? { cache: createDiskCache(data.cache.dir, data.cache.tool) } : {}),
};

async function runTask(model: Catalogue, task: EmitTask): Promise<OutputFile[]> {
  if (task.kind === 'group') {
    const [unit] = groupPackageUnits(model, context, new Set([task.slug]));
    if (!unit) throw new Error(`no group ${task.slug} in the model the worker was given`);
    return unit.files();
  }
  const emitter = EMITTERS.find((candidate) => candidate.name === task.name);
  if (!emitter) throw new Error(`no emitter ${task.name}`);
  return emitter.emit(model, context);
}

parentPort!.on('message', (message: { id: number; task: EmitTask } | ModelMessage) => {
  if ('model' in message) {
    model = unpackValue<Catalogue>(message.model);
    if (message.digests) adoptDigests(model, message.digests);
    return;
  }
  // The pool sends tasks only after the model, and messages arrive in order.
  runTask(model!, message.task).then(
    (files) => parentPort!.postMessage({ id: message.id, files } satisfies WorkerReply),
    (error: unknown) =>
      parentPort!.postMessage({
        id: message.id,
        error:
          error instanceof Error
            ? { message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
            : { message: String(error) },
      } satisfies WorkerReply),
  );
});
