// Verdaccio helpers for `npm run npm-registry`, the benchmarks and the end-to-end tests: tooling around
// the product, never imported by generators/.

import { spawn } from 'node:child_process';

/** A registry running in a child process. */
export interface RegistryProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Runs `scripts/npm-registry.js` (compiled) as a child process on a free loopback port and resolves with
 * its URL once it listens. Benchmarks and end-to-end tests use this rather than `startLocalRegistry`:
 * a registry in another process keeps answering while the caller blocks on a synchronous npm.
 */
export function spawnRegistryProcess(script: string, storage: string): Promise<RegistryProcess> {
  const child = spawn(process.execPath, [script, '--port', '0', '--storage', storage], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((done, fail) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      fail(new Error(`the registry did not start within 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const url = /listening on (http:\/\/\S+\/)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.resume();
      done({ url, pid: child.pid!, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the registry exited with code ${code} before listening:\n${output}`));
    });
  });
}
