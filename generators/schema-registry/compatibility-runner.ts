import type { Worker } from 'node:worker_threads';
import { startWorker } from '../shared/worker.js';
import type { CandidateJob, CandidateVerdict } from './compatibility.js';
import type { CompatibilityReply, CompatibilityRequest } from './compatibility-worker.js';

/** How long one check may run before its thread is stopped and the client told the schema is too large. */
const COMPATIBILITY_TIMEOUT_MS = 20_000;

/** A check that did not finish in time (its thread was stopped). */
export class CompatibilityTimeout extends Error {}

interface Pending {
  resolve(verdict: CandidateVerdict): void;
  reject(error: Error): void;
}

/**
 * Runs compatibility checks on one thread of their own, one at a time in arrival order, so a heavy
 * check never holds up `/healthz` or any read (docs/decisions/0093). The thread starts on the first
 * check and does not keep the process alive. A check still running after `timeoutMs` (only a schema
 * built to defeat the limits could take that long, e.g. a pattern that backtracks) stops the thread:
 * that check is answered as too large, the others waiting are run on a new thread.
 */
export class CompatibilityRunner {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly queue: CompatibilityRequest[] = [];
  private running: { id: number; timer: NodeJS.Timeout } | undefined;
  private next = 0;

  constructor(private readonly timeoutMs = COMPATIBILITY_TIMEOUT_MS) {}

  judge(job: CandidateJob): Promise<CandidateVerdict> {
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve, reject });
      this.queue.push({ id, job });
      this.pump();
    });
  }

  /** Stops the thread; checks not answered yet fail. */
  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (this.running) clearTimeout(this.running.timer);
    this.running = undefined;
    for (const [, pending] of this.pending) pending.reject(new Error('the server is closing'));
    this.pending.clear();
    this.queue.length = 0;
    void worker?.terminate();
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    const request = this.queue.shift()!;
    const worker = this.thread();
    const timer = setTimeout(() => this.timedOut(request.id), this.timeoutMs);
    this.running = { id: request.id, timer };
    worker.postMessage(request);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker('schema-registry/compatibility-worker');
    worker.on('message', (reply: CompatibilityReply) => {
      if (worker !== this.worker) return;
      if ('verdict' in reply) this.settle(reply.id, (p) => p.resolve(reply.verdict));
      else this.settle(reply.id, (p) => p.reject(new Error(reply.failed)));
    });
    const lost = (why: string) => {
      if (worker !== this.worker) return;
      this.worker = undefined;
      if (this.running) this.settle(this.running.id, (p) => p.reject(new Error(why)));
    };
    worker.on('error', (error) => lost(`the compatibility thread failed: ${error.message}`));
    worker.on('exit', (code) => lost(`the compatibility thread exited (${code})`));
    // After the listeners: a 'message' listener added later refs the thread's port again, and the
    // process would never exit (an `eventry mcp` outliving its client, `serve` after SIGTERM).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private timedOut(id: number): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    const seconds = this.timeoutMs / 1000;
    this.settle(id, (p) =>
      p.reject(
        new CompatibilityTimeout(`judging it took longer than ${seconds} s, the most one check may take.`),
      ),
    );
  }

  private settle(id: number, with_: (pending: Pending) => void): void {
    if (this.running?.id === id) {
      clearTimeout(this.running.timer);
      this.running = undefined;
    }
    const pending = this.pending.get(id);
    this.pending.delete(id);
    if (pending) with_(pending);
    this.pump();
  }
}
