import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHistory } from '../../generators/schema-registry/history.js';
import { runCliInProcess } from '../cli/in-process.js';
import { fixturePath, tempDir } from '../helpers.js';
import { releasedTwice } from '../schema-registry/released-repo.js';
import { makeRepo } from './git-repo.js';

/** A folder outside any repository holding a copy of `catalogue`: git finds a repository only through GIT_DIR. */
function outsideCopy(catalogue: string): string {
  const work = tempDir('eventry-git-env-');
  cpSync(catalogue, join(work, 'catalogue'), { recursive: true });
  return work;
}

// Regression: git children inherited the process's environment, so a GIT_DIR, HOME or GIT_CONFIG_GLOBAL
// given to runCli (or set by the caller of a domain function) never reached git.
describe('git runs with the environment it is given, not the process’s', () => {
  it('eventry diff HEAD reads the repository an injected GIT_DIR names', async () => {
    const repo = makeRepo();
    repo.copy(fixturePath('small'), 'catalogue');
    const first = repo.commit('first');
    const work = outsideCopy(join(repo.dir, 'catalogue'));
    const args = ['diff', 'HEAD', 'catalogue', '--format', 'json'];

    const withGitDir = await runCliInProcess(args, { cwd: work, env: { GIT_DIR: join(repo.dir, '.git') } });
    expect(withGitDir.stderr).toBe('');
    expect(withGitDir.status).toBe(0);
    expect(JSON.parse(withGitDir.stdout).compared.old.label).toBe(`HEAD (${first.slice(0, 7)})`);

    // The same command without it: no repository, so HEAD is no catalogue at all.
    const without = await runCliInProcess(args, { cwd: work, env: { GIT_DIR: undefined } });
    expect(without.status).toBe(2);
    expect(without.stderr).toContain('`HEAD` is neither a catalogue directory');
  });

  it('the schema registry’s release history is read through the GIT_DIR in its env', () => {
    const repo = releasedTwice();
    const work = outsideCopy(join(repo.dir, 'catalogue'));
    const env = { ...process.env, GIT_DIR: join(repo.dir, '.git') };
    const given = loadHistory({ cwd: work, env, catalogue: 'catalogue' });
    if (!given.ok) throw new Error(JSON.stringify(given));
    expect(given.history.points.map((point) => point.version)).toEqual(['1.0.0', '1.1.0', '1.1.0']);
    const { GIT_DIR: _, ...withoutGitDir } = env;
    const plain = loadHistory({ cwd: work, env: withoutGitDir, catalogue: 'catalogue' });
    if (!plain.ok) throw new Error(JSON.stringify(plain));
    expect(plain.history.points.map((point) => point.label)).toEqual(['working catalogue']);
  });
});
