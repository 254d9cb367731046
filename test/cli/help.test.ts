import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_INTERNAL, EXIT_USAGE } from '../../generators/shared/exit-codes.js';
import { REPO } from '../helpers.js';
import { makeRepo } from '../sources/git-repo.js';
import { runCliInProcess } from './in-process.js';

describe('eventry --help', () => {
  it('names every exit code a script may see, with what each means', async () => {
    const result = await runCliInProcess(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Exit codes: 0 success; 1 the input has problems/);
    expect(result.stdout).toContain(`${EXIT_USAGE} a usage error`);
    expect(result.stdout).toContain(`${EXIT_INTERNAL} an internal error`);
  });

  it('`eventry help` and `eventry help diff` exit 0 (help asked for is no usage error)', async () => {
    const all = await runCliInProcess(['help']);
    expect(all.stdout).toContain('Usage: eventry [options] [command]');
    expect(all.status).toBe(0);
    const one = await runCliInProcess(['help', 'diff']);
    expect(one.stdout).toContain('Usage: eventry diff [options] <old> <new>');
    expect(one.status).toBe(0);
    // With no command at all the help is shown as a usage error.
    expect((await runCliInProcess([])).status).toBe(EXIT_USAGE);
  });

  it('diff --help names npm: specs and says what --level NONE means', async () => {
    const result = await runCliInProcess(['diff', '--help']);
    expect(result.stdout).toMatch(/npm:@scope\/group@1\.2\.0\s+\(a\s+published\s+group\s+package\)/);
    expect(result.stdout).toMatch(
      /NONE:\s+the\s+registry\s+checks\s+nothing\s+and\s+accepts\s+every\s+new\s+version/,
    );
  });
});

describe('a usage error prints one line and a hint, not the whole help', () => {
  it.each([
    [['diff'], "eventry diff: missing required argument 'old'\nRun `eventry diff --help` for usage.\n"],
    [
      ['check', '--bogus'],
      "eventry check: unknown option '--bogus'\nRun `eventry check --help` for usage.\n",
    ],
    [['bogus'], "eventry: unknown command 'bogus'\nRun `eventry --help` for usage.\n"],
  ])('eventry %j', async (args, stderr) => {
    const result = await runCliInProcess(args);
    expect(result.stderr).toBe(stderr);
    expect(result.stdout).toBe('');
    expect(result.status).toBe(EXIT_USAGE);
  });
});

describe('eventry diff: what a script reads', () => {
  const FIXTURE = join(REPO, 'test', 'fixtures', 'diff-report');
  const repo = makeRepo();
  repo.copy(join(FIXTURE, 'before'), 'catalogue');
  const first = repo.commit('before').slice(0, 7);
  repo.copy(join(FIXTURE, 'after'), 'catalogue');
  const second = repo.commit('after').slice(0, 7);
  const diff = (...args: string[]) => runCliInProcess(['diff', ...args], { cwd: repo.dir });

  it('--format json carries the compared refs and the summary counts', async () => {
    const result = await diff('HEAD~1', 'HEAD', '--format', 'json');
    const json = JSON.parse(result.stdout);
    expect(json.compared).toEqual({
      old: { label: `HEAD~1 (${first})`, version: '1.4.0' },
      new: { label: `HEAD (${second})`, version: '1.4.0' },
    });
    const bySeverity = (severity: string) =>
      json.changes.filter((change: { severity: string }) => change.severity === severity).length;
    expect(json.summary).toEqual({
      changes: json.changes.length,
      breaking: bySeverity('breaking'),
      'non-breaking': bySeverity('non-breaking'),
      docs: bySeverity('docs'),
    });
    expect(json.summary.breaking).toBeGreaterThan(0);
  });

  it('--level NONE says that such a registry checks nothing, in text and in json', async () => {
    const text = await diff('HEAD~1', 'HEAD', '--level', 'NONE');
    expect(text.stdout).toContain(
      'NONE: the registry checks no compatibility and accepts every new version, breaking or not; the changes above say what breaks.',
    );
    const json = JSON.parse((await diff('HEAD~1', 'HEAD', '--level', 'NONE', '--format', 'json')).stdout);
    expect(json.registry.note).toMatch(/^NONE: the registry checks no compatibility/);
    const backward = await diff('HEAD~1', 'HEAD', '--level', 'BACKWARD');
    expect(backward.stdout).not.toContain('NONE: the registry');
  });
});
