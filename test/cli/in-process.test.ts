import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, tempDir } from '../helpers.js';
import { makeRepo } from '../sources/git-repo.js';
import { runCliInProcess } from './in-process.js';

const FIELD_REMOVED = join(REPO, 'test', 'fixtures', 'diff', 'field-removed');

describe('runCliInProcess: the CLI inside the test process, as the compiled CLI behaves', () => {
  it.each([
    ['the version', ['--version']],
    ['an unknown flag (commander usage error)', ['build', '--bogus']],
    [
      'a diff with findings, as JSON (stdout)',
      ['diff', join(FIELD_REMOVED, 'before'), join(FIELD_REMOVED, 'after'), '--format', 'json'],
    ],
    [
      'a publish without a catalogue (stderr)',
      ['publish', '--registry', 'http://127.0.0.1:9/', '--catalogue', join(REPO, 'no-such-dir')],
    ],
  ])('%s: same status, stdout and stderr as the spawned CLI', async (_name, args) => {
    const inProcess = await runCliInProcess(args);
    expect(inProcess).toEqual(runCli(args));
    expect(inProcess.stdout + inProcess.stderr).not.toBe('');
  });

  it('leaves the working directory, the exit code and the environment of the process alone', async () => {
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

  // Regression: the helper swapped process.stdout, process.env and the working folder for a run, so a
  // second run at the same time was refused (it would have written into the first one's output).
  it('runs commands concurrently, each with its own working folder, environment and output', {
    timeout: 60_000,
  }, async () => {
    const breaking = makeRepo();
    breaking.copy(join(FIELD_REMOVED, 'before'), 'catalogue');
    breaking.commit('first');
    breaking.copy(join(FIELD_REMOVED, 'after'), 'catalogue');
    const clean = makeRepo();
    clean.copy(join(FIELD_REMOVED, 'before'), 'catalogue');
    clean.commit('first');

    const [blocked, unseen, relative] = await Promise.all([
      runCliInProcess(['check'], { cwd: breaking.dir, env: { EVENTRY_BASE: 'HEAD' } }),
      runCliInProcess(['check'], { cwd: clean.dir, env: { EVENTRY_BASE: 'no-such-ref' } }),
      runCliInProcess(['diff', 'before', 'after', '--format', 'json'], { cwd: FIELD_REMOVED }),
    ]);

    expect(blocked.status).toBe(1);
    expect(blocked.stdout).toMatch(/catalogue\/orders\.yaml:\d+:\d+: error /);
    expect(blocked.stdout).toContain('2 breaking change(s) to existing event versions blocked');
    expect(blocked.stdout).toContain('from EVENTRY_BASE');
    expect(unseen.status).toBe(2);
    expect(unseen.stdout).toBe('');
    expect(unseen.stderr).toContain('EVENTRY_BASE');
    expect(unseen.stderr).toContain('no-such-ref');
    expect(relative.status).toBe(1);
    expect(JSON.parse(relative.stdout).compared.old.label).toBe('before');
    expect(JSON.parse(relative.stdout).summary.breaking).toBe(2);
    expect(relative.stderr).toBe('');
    // None saw another's output.
    for (const text of [blocked.stdout, blocked.stderr, relative.stdout])
      expect(text).not.toContain('no-such-ref');
    for (const text of [unseen.stderr, relative.stdout])
      expect(text).not.toContain('breaking change(s) to existing');
    expect(blocked.stdout).not.toContain('"compared"');
  });
});
