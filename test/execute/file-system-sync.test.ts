import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSystemSyncer } from '../../generators/execute/file-system-sync.js';
import { readIfExists } from '../../generators/shared/fs.js';
import { compiledToolkitPath, describeGroup, REPO, tempDir } from '../helpers.js';

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

// `sync -f` is coreutils' on Linux; elsewhere a build syncs file by file and never starts the shell.
describe.runIf(process.platform === 'linux')('one shell syncs a build’s file system on request', () => {
  it('answers each request, in order, false for a folder that is gone or a name with a line break; false once closed', async () => {
    const dir = tempDir();
    const other = tempDir();
    const syncer = new FileSystemSyncer();
    expect(await Promise.all([syncer.sync(dir), syncer.sync(other), syncer.sync(dir)])).toEqual([
      true,
      true,
      true,
    ]);
    // A failed sync is that request's answer, not the end of the shell.
    expect(await syncer.sync(join(dir, 'not-there'))).toBe(false);
    expect(await syncer.sync(`${dir}\n${other}`)).toBe(false);
    expect(await syncer.sync(dir)).toBe(true);
    // A relative folder is the process's, and a name like an option is a folder.
    expect(await syncer.sync(relative(process.cwd(), dir))).toBe(true);
    mkdirSync(join(dir, '-f'));
    expect(await syncer.sync(join(relative(process.cwd(), dir), '-f'))).toBe(true);
    syncer.close();
    expect(await syncer.sync(dir)).toBe(false);
  });

  // The compiled module (`npm test` builds the toolkit first), as the CLI runs it.
  it('a process that never closes it still ends, and takes the shell with it', () => {
    const dir = tempDir();
    const script = `
      const { fileSystemSyncer } = await import(${JSON.stringify(compiledToolkitPath('generators/execute/file-system-sync.js'))});
      const syncer = fileSystemSyncer();
      syncer.start();
      console.log(await syncer.sync(${JSON.stringify(dir)}), syncer.pid);
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(0);
    const [answer, pid] = run.stdout.trim().split(' ');
    expect(answer).toBe('true');
    expect(Number(pid)).toBeGreaterThan(0);
    // The shell reads the end of its input as the process ends: gone within moments (a zombie left
    // for an init that does not reap counts as gone).
    const shellAlive = () => {
      const stat = readIfExists(`/proc/${pid}/stat`);
      return stat !== undefined && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    };
    for (let tries = 0; tries < 100 && shellAlive(); tries++) Atomics.wait(PAUSE, 0, 0, 50);
    expect(shellAlive()).toBe(false);
  });

  // The compiled build, one process per build, as `eventry build` runs: the shell is the process's.
  it('a build with no state starts the shell before its load; an edit over the last build’s state and cache never does', () => {
    const project = tempDir();
    const catalogue = join(project, 'catalogue');
    cpSync(join(REPO, 'catalogue'), catalogue, { recursive: true });
    const out = join(project, 'packages');
    const build = () => {
      const script = `
        const { runBuild } = await import(${JSON.stringify(compiledToolkitPath('generators/cli/build.js'))});
        const { fileSystemSyncer } = await import(${JSON.stringify(compiledToolkitPath('generators/execute/file-system-sync.js'))});
        const lines = [];
        const code = await runBuild({ catalogue: ${JSON.stringify(catalogue)}, out: ${JSON.stringify(out)}, cache: true }, { cwd: process.cwd(), env: process.env }, { log: (line) => lines.push(line), error: (line) => lines.push(line) });
        console.log(JSON.stringify({ code, shell: fileSystemSyncer().pid !== undefined, lines }));
      `;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.stderr).toBe('');
      return JSON.parse(run.stdout) as { code: number; shell: boolean; lines: string[] };
    };
    const full = build();
    expect(full.code).toBe(0);
    expect(full.shell).toBe(true);
    describeGroup(join(catalogue, 'groups', 'account.yaml'), 'Edited.');
    const edit = build();
    expect(edit.code).toBe(0);
    expect(edit.lines.join('\n')).toMatch(/built \d+ events in \d+ groups: [1-9]\d* files written/);
    expect(edit.shell).toBe(false);
  });
});
