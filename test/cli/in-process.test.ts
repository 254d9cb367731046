import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

const FIELD_REMOVED = join(REPO, 'test', 'fixtures', 'diff', 'field-removed');

describe('runCliInProcess: the CLI inside the test process, as the compiled CLI behaves', () => {
  it.each([
    ['the version', ['--version']],
    ['an unknown flag (commander usage error)', ['build', '--bogus']],
    [
      'a diff with findings, as JSON (process.stdout)',
      ['diff', join(FIELD_REMOVED, 'before'), join(FIELD_REMOVED, 'after'), '--format', 'json'],
    ],
    [
      'a publish without a catalogue (console.error)',
      ['publish', '--registry', 'http://127.0.0.1:9/', '--catalogue', join(REPO, 'no-such-dir')],
    ],
  ])('%s: same status, stdout and stderr as the spawned CLI', async (_name, args) => {
    const inProcess = await runCliInProcess(args);
    expect(inProcess).toEqual(runCli(args));
    expect(inProcess.stdout + inProcess.stderr).not.toBe('');
  });

  it('puts back the working directory, the exit code and the environment after the run', async () => {
    const cwd = process.cwd();
    const before = process.env.EVENTRY_BASE;
    const result = await runCliInProcess(['check', '--base', 'nope'], {
      cwd: tempDir(),
      env: { EVENTRY_BASE: 'x' },
    });
    expect(result.status).toBe(2);
    expect(process.cwd()).toBe(cwd);
    expect(process.exitCode).toBeUndefined();
    expect(process.env.EVENTRY_BASE).toBe(before);
  });

  it('refuses a second run while one is under way, since both would write into the same output', async () => {
    const first = runCliInProcess(['--version']);
    await expect(runCliInProcess(['--version'])).rejects.toThrow(/one command at a time/);
    expect((await first).stdout).toBe('0.1.0\n');
  });
});
