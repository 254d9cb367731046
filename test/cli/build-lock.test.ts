import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE, lockOutput } from '../../generators/execute/lock.js';
import { fixturePath, REPO, tempDir } from '../helpers.js';
import { eventryAsync } from './output-tree.js';

// Two builds of one output at once would each decide what to write and sweep from the output as they
// found it: the second waits for the first (the lock at the output's root), and a lock a dead build
// left is taken over.

const build = (out: string, onStderr?: (stderr: string) => void) =>
  eventryAsync(['build', '--catalogue', fixturePath('small'), '--out', out], onStderr ? { onStderr } : {});

describe('eventry build holds the lock of its output', () => {
  it('waits while another build holds it, says so, and builds once it is released', async () => {
    const out = tempDir('eventry-build-lock-');
    // This process stands for the other build: alive, holding the output's lock.
    const held = await lockOutput(out, () => undefined);
    let sawWait = false;
    const result = await build(out, (stderr) => {
      if (sawWait || !stderr.includes(`waiting for another build (process ${process.pid})`)) return;
      sawWait = true;
      // Nothing written while it waits: the folder holds the lock only.
      expect(readdirSync(out)).toEqual([LOCK_FILE]);
      held.release();
    });
    expect(sawWait).toBe(true);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/built 8 events/);
    expect(existsSync(join(out, 'account', 'package.json'))).toBe(true);
    expect(existsSync(join(out, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('takes over the lock a build that died left, without waiting', async () => {
    const out = tempDir('eventry-build-lock-');
    // The id of a process that has exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(out, LOCK_FILE), `${dead}\n`);
    const result = await build(out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(existsSync(join(out, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('a first build that fails leaves no output folder behind (the lock made it)', async () => {
    const root = tempDir('eventry-build-lock-');
    const out = join(root, 'packages');
    const result = await eventryAsync([
      'build',
      '--catalogue',
      join(REPO, 'test', 'fixtures', 'bad', 'unknown-type', 'catalogue'),
      '--out',
      out,
    ]);
    expect(result.status).toBe(1);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});
