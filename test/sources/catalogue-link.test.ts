import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../cli/in-process.js';
import { fixturePath, tempDir } from '../helpers.js';
import { releasedTwice } from '../schema-registry/released-repo.js';
import { makeRepo } from './git-repo.js';

/**
 * Git knows a file by its real name: a catalogue named through a symbolic link has no history of its
 * own. Every command that reads the release history finds the catalogue's releases whichever way it
 * is named: directly, through a link in the repository, or through a link from outside it.
 */
describe('a catalogue named through a symbolic link has the history of the catalogue itself', () => {
  const repo = releasedTwice();
  symlinkSync(join(repo.dir, 'catalogue'), join(repo.dir, 'catalogue-link'));
  const outside = join(tempDir('eventry-link-'), 'catalogue');
  symlinkSync(join(repo.dir, 'catalogue'), outside);
  const names = ['catalogue', 'catalogue-link', outside];
  const run = (...args: string[]) => runCliInProcess(args, { cwd: repo.dir, env: { EVENTRY_BASE: '' } });

  it('registry export: the same release, read from the same history', async () => {
    const exported: string[] = [];
    for (const name of names) {
      const out = join(tempDir('eventry-link-export-'), 'registry');
      const result = await run('registry', 'export', '--catalogue', name, '--out', out);
      expect(result.status, result.stderr).toBe(0);
      exported.push(
        /exported release ([0-9a-f]+) \((\d+) routes/.exec(result.stdout)?.slice(1).join(' ') ?? '',
      );
    }
    expect(exported[0]).toMatch(/^[0-9a-f]+ \d+$/);
    expect(exported).toEqual([exported[0], exported[0], exported[0]]);
  });

  it('version --dry-run: the same bump, from the same last release of the package', async () => {
    const released = makeRepo();
    const inRepo = (...args: string[]) => runCliInProcess(args, { cwd: released.dir });
    released.copy(fixturePath('small'), 'catalogue');
    expect((await inRepo('build')).status).toBe(0);
    const release = released.commit('release 1.0.0').slice(0, 7);
    const groupFile = join(released.dir, 'catalogue', 'groups', 'account.yaml');
    writeFileSync(
      groupFile,
      readFileSync(groupFile, 'utf8').replace(
        '      tags: {type: [[integer]]}\n',
        '      tags: {type: [[integer]]}\n      nickname: {type: string}\n',
      ),
    );
    symlinkSync(join(released.dir, 'catalogue'), join(released.dir, 'catalogue-link'));
    const from = join(tempDir('eventry-link-'), 'catalogue');
    symlinkSync(join(released.dir, 'catalogue'), from);
    const plans: string[] = [];
    for (const name of ['catalogue', 'catalogue-link', from]) {
      const result = await inRepo('version', '--dry-run', '--catalogue', name);
      expect(result.status, result.stderr).toBe(0);
      plans.push(result.stdout);
    }
    expect(plans[0]).toContain(`@fixture-events/account: 1.0.0 → 1.1.0 (minor since commit ${release}`);
    expect(plans).toEqual([plans[0], plans[0], plans[0]]);
  });
});
