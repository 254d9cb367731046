import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as diff from '../../generators/diff/index.js';
import { REPO } from '../helpers.js';
import { makeRepo } from '../sources/git-repo.js';
import { runCliInProcess } from './in-process.js';

// Counts the whole-catalogue diffs `version` runs, without changing what they return.
vi.mock('../../generators/diff/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../generators/diff/index.js')>();
  return { ...actual, compareCatalogues: vi.fn(actual.compareCatalogues) };
});

const FIXTURE = join(REPO, 'test', 'fixtures', 'diff-report');
const manifest = (slug: string, version: string) =>
  `{\n  "name": "@shop-events/${slug}",\n  "version": "${version}",\n  "type": "module"\n}\n`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('eventry version (regression: the whole catalogue was diffed once per package)', () => {
  it('diffs once per release commit, however many packages it released', { timeout: 60_000 }, async () => {
    const repo = makeRepo();
    repo.copy(join(FIXTURE, 'before'), 'catalogue');
    repo.write('packages/orders/package.json', manifest('orders', '1.4.2'));
    repo.write('packages/payments/package.json', manifest('payments', '1.0.3'));
    repo.commit('release');
    repo.copy(join(FIXTURE, 'after'), 'catalogue');
    repo.commit('changes');

    const { status, stdout } = await runCliInProcess(['version', '--dry-run'], { cwd: repo.dir });

    expect(status).toBe(0);
    // Both packages were bumped from their own findings of the one diff.
    expect(stdout).toContain('@shop-events/orders: 1.4.2 → 2.0.0 (major since commit');
    expect(stdout).toContain('@shop-events/payments: 1.0.3 → 2.0.0 (major since commit');
    expect(vi.mocked(diff.compareCatalogues)).toHaveBeenCalledTimes(1);
  });
});
