import { spawnSync } from 'node:child_process';
import { compiledToolkitPath, REPO } from '../helpers.js';

/** What a run of the compiled CLI gave: `status` null when it was given up (a hang). */
export interface SpawnedRun {
  status: number | null;
  stdout: string;
  stderr: string;
  output: string;
}

/**
 * The compiled CLI in its own process, given up after `timeout` ms: a read of a FIFO or a
 * catastrophic pattern would block the test process itself if run in process.
 */
export function eventry(args: string[], timeout = 30_000): SpawnedRun {
  const result = spawnSync(process.execPath, [compiledToolkitPath('scripts/eventry.js'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    output: `${result.stdout}${result.stderr}`,
  };
}
