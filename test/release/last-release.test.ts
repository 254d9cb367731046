import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../cli/in-process.js';
import { fixturePath } from '../helpers.js';
import { makeRepo } from '../sources/git-repo.js';

/**
 * `eventry check` (the catalogue's last release, the gate's base) and `eventry version` (each package's
 * last release, what it bumps from) find releases by one rule: the nearer of a release tag and a
 * version commit. A package tagged at an old release and released later by a version commit (as
 * `eventry version` records it, without a tag) is last released at that commit, for both.
 */
describe('check and version name the same last release', () => {
  it('a release commit after a tagged release is the last release of both', async () => {
    const repo = makeRepo();
    const run = (...args: string[]) => runCliInProcess(args, { cwd: repo.dir });
    repo.copy(fixturePath('small'), 'catalogue');
    expect((await run('build')).status).toBe(0);
    repo.commit('release 1.0.0');
    repo.git('tag', '@fixture-events/account@1.0.0');

    const groupFile = join(repo.dir, 'catalogue', 'groups', 'account.yaml');
    const addField = (name: string) =>
      writeFileSync(
        groupFile,
        readFileSync(groupFile, 'utf8').replace(
          '      tags: {type: [[integer]]}\n',
          `      tags: {type: [[integer]]}\n      ${name}: {type: string}\n`,
        ),
      );
    addField('nickname');
    const released = await run('version');
    expect(released.status, released.stderr).toBe(0);
    const release = repo.commit('release 1.1.0').slice(0, 7);

    // A change in the work tree on top of the release: both compare with it.
    addField('middle_name');
    const check = await run('check');
    expect(check.stdout).toContain(`eventry check: base commit ${release} (the last release, HEAD)`);
    const version = await run('version', '--dry-run');
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toMatch(
      new RegExp(`@fixture-events/account: 1\\.1\\.0 → 1\\.2\\.0 \\(minor since commit ${release}[;)]`),
    );
  });
});
