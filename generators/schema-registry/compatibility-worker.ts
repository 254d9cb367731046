import { isMainThread, parentPort } from 'node:worker_threads';
import { type CandidateJob, type CandidateVerdict, judgeCandidate } from './compatibility.js';

/** A job sent to the thread: its number, so the answer finds its request. */
export interface CompatibilityRequest {
  id: number;
  job: CandidateJob;
}

/** The thread's answer: the verdict, or the message of what failed (a bug: the server logs it). */
export type CompatibilityReply = { id: number; verdict: CandidateVerdict } | { id: number; failed: string };

/**
 * The thread compatibility checks run on (compatibility-runner.ts: `serve`'s `/compatibility`, MCP's `check_compatibility`): judging a client's
 * schema takes up to a second or so at the limits, and the server's own thread keeps answering
 * every other request meanwhile.
 */
function serve(port: NonNullable<typeof parentPort>): void {
  port.on('message', ({ id, job }: CompatibilityRequest) => {
    let reply: CompatibilityReply;
    try {
      reply = { id, verdict: judgeCandidate(job) };
    } catch (error) {
      reply = { id, failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    port.postMessage(reply);
  });
}

if (!isMainThread && parentPort) serve(parentPort);
