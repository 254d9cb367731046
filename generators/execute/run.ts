import { statSync } from 'node:fs';
import type { OutputFolderProblem } from '../shared/output-folder.js';
import type { BuildRequest, BuildResult, Executor } from './executor.js';
import { lockOutput } from './lock.js';
import { checkBuildOutput } from './output-folder.js';
import { recoverOutput } from './write.js';

/** Why a build did not start, or how it ended. */
export type RunResult =
  | { kind: 'no-catalogue' }
  | { kind: 'out-not-a-folder' }
  | { kind: 'out-refused'; problem: OutputFolderProblem }
  /** The output's lock could not be taken (the file system's error code). */
  | { kind: 'lock-failed'; code: string }
  | BuildResult;

/** What a run tells as it goes. */
export interface RunEvents {
  /** Another build (process `pid`) holds the output; this one waits. */
  onLockWait?(pid: number): void;
  /** An interrupted build was found and its output moved in or discarded. */
  onRecovered?(how: 'rolled-forward' | 'rolled-back'): void;
}

/**
 * Runs `executor` on `request` once the folders pass their checks (the output, named `outGiven` by the
 * user, is a folder eventry may write), holding the output's lock, after finishing or discarding any
 * build that was interrupted there.
 */
export async function runExecutor(
  executor: Executor,
  request: BuildRequest & { outGiven: string; cwd?: string },
  events: RunEvents = {},
): Promise<RunResult> {
  const { catalogueDir, outDir, outGiven, cwd, ...rest } = request;
  if (!statSync(catalogueDir, { throwIfNoEntry: false })?.isDirectory()) return { kind: 'no-catalogue' };
  const outStat = statSync(outDir, { throwIfNoEntry: false });
  if (outStat && !outStat.isDirectory()) return { kind: 'out-not-a-folder' };
  const problem = checkBuildOutput(outGiven, outDir, catalogueDir, cwd);
  if (problem) return { kind: 'out-refused', problem };
  let lock: Awaited<ReturnType<typeof lockOutput>>;
  try {
    lock = await lockOutput(outDir, (pid) => events.onLockWait?.(pid));
  } catch (error) {
    return { kind: 'lock-failed', code: (error as NodeJS.ErrnoException).code ?? 'EIO' };
  }
  try {
    const recovered = recoverOutput(outDir);
    if (recovered !== 'clean') events.onRecovered?.(recovered);
    return await executor.build({ catalogueDir, outDir, ...rest });
  } finally {
    lock.release();
  }
}
