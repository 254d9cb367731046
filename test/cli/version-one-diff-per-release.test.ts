import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as diff from '../../generators/diff/index.js';
import { runCliInProcess } from './in-process.js';
import { FIXTURE, released } from './version-repo.js';

// Counts the whole-catalogue diffs `version` runs, without changing what they return.
vi.mock('../../generators/diff/index.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../generators/diff/index.js')>();
  return { ...actual, compareCatalogues: vi.fn(actual.compareCatalogues) };
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('eventry version (regression: the whole catalogue was diffed once per package)', () => {
  it('diffs once per release commit, however many packages it released', { timeout: 60_000 }, async () => {
    const repo = released();
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
