// The worker-thread side of `resolveSourcePair` (concurrent.ts): resolves one spec and posts the result
// back. A bug thrown here reaches the main thread as the worker's `error` event.
import { parentPort, workerData } from 'node:worker_threads';
import { resolveSource } from './index.js';
import type { SourceOptions } from './source.js';

const { spec, options } = workerData as { spec: string; options: SourceOptions };
parentPort?.postMessage(resolveSource(spec, options));
