import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSystemSyncer } from '../../../generators/build/file-system-sync.js';
import { REPO, tempDir } from '../../helpers.js';

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

// `sync -f` is coreutils' on Linux; elsewhere a build syncs file by file and never starts the shell.
describe.runIf(process.platform === 'linux')('one shell syncs a build’s file system on request', () => {
  it('answers each request, in order, and false for a folder that is gone; false once closed', async () => {
    const dir = tempDir();
    const syncer = new FileSystemSyncer(dir);
    expect(await Promise.all([syncer.sync(), syncer.sync(), syncer.sync()])).toEqual([true, true, true]);
    syncer.close();
    expect(await syncer.sync()).toBe(false);
    const gone = new FileSystemSyncer(join(dir, 'not-there'));
    expect(await gone.sync()).toBe(false);
    // A failed sync is that request's answer, not the end of the shell.
    expect(await gone.sync()).toBe(false);
    gone.close();
  });

  // The compiled module (`npm test` builds the toolkit first), as the CLI runs it.
  it('a process that never closes it still ends, and takes the shell with it', () => {
    const dir = tempDir();
    const script = `
      const { FileSystemSyncer } = await import(${JSON.stringify(join(REPO, 'dist/generators/build/file-system-sync.js'))});
      const syncer = new FileSystemSyncer(${JSON.stringify(dir)});
      console.log(await syncer.sync());
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('true');
    // The shell reads the end of its input as the process ends: gone within moments.
    const shellAlive = () => spawnSync('pgrep', ['-f', `eventry-sync ${dir}`]).status === 0;
    for (let tries = 0; tries < 100 && shellAlive(); tries++) Atomics.wait(PAUSE, 0, 0, 50);
    expect(shellAlive()).toBe(false);
  });
});
