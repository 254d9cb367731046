import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateReleaseFolders, planVersions } from '../../generators/release/version-plan.js';
import { FIXTURE, manifest, released } from '../cli/version-repo.js';
import { tempDir } from '../helpers.js';

describe('planVersions: the release `eventry version` makes, as data', () => {
  it('bumps each package from its own findings and lists the files to write, writing none', {
    timeout: 60_000,
  }, () => {
    const repo = released();
    repo.copy(join(FIXTURE, 'after'), 'catalogue');
    repo.commit('changes');
    const folders = locateReleaseFolders({ cwd: repo.dir, env: process.env }, 'packages');
    expect(folders.kind).toBe('located');
    if (folders.kind !== 'located') return;

    const run = planVersions({ cwd: repo.dir, env: process.env }, 'catalogue', folders);

    expect(run.kind).toBe('planned');
    if (run.kind !== 'planned') return;
    expect(
      run.packages.map((entry) => [entry.name, entry.kind, 'target' in entry ? entry.target : '']),
    ).toEqual([
      ['@shop-events/orders', 'bumped', '2.0.0'],
      ['@shop-events/payments', 'bumped', '2.0.0'],
      ['@shop-events/returns', 'unbuilt', ''],
    ]);
    expect(run.catalogue.kind).toBe('bumped');
    const orders = run.writes.find((write) => write.path.endsWith(join('orders', 'package.json')));
    expect(JSON.parse(orders!.contents).version).toBe('2.0.0');
    expect(run.writes.map((write) => write.path.slice(repo.dir.length + 1)).sort()).toEqual([
      'catalogue/eventry.config.yaml',
      'packages/orders/CHANGELOG.md',
      'packages/orders/package.json',
      'packages/payments/CHANGELOG.md',
      'packages/payments/package.json',
    ]);
    // Planning reads only: what is on disk is what was committed.
    expect(readFileSync(join(repo.dir, 'packages/orders/package.json'), 'utf8')).toBe(
      manifest('orders', '1.4.2'),
    );
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('outside a git repository there is no release to find', () => {
    expect(locateReleaseFolders({ cwd: tempDir(), env: process.env }, 'packages').kind).toBe(
      'not-a-repository',
    );
  });
});
