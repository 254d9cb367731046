import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runGate } from '../../generators/check/run.js';
import type { GateRequest } from '../../generators/check/verdict.js';
import { REPO } from '../helpers.js';
import { makeRepo, type TestRepo } from '../sources/git-repo.js';

const BEFORE = join(REPO, 'test', 'fixtures', 'diff', 'field-removed', 'before');
const ORDERS = readFileSync(join(BEFORE, 'orders.yaml'), 'utf8');

/** A repository whose first commit records catalogue 1.0.0: the first release. */
function released(): TestRepo {
  const repo = makeRepo();
  repo.copy(BEFORE, 'catalogue');
  repo.commit('release 1.0.0');
  return repo;
}

const request = (repo: TestRepo, base?: string): GateRequest => ({
  source: { cwd: repo.dir, env: { ...process.env, EVENTRY_BASE: '' }, catalogue: 'catalogue' },
  ...(base ? { base: { spec: base, from: '--base' as const } } : {}),
  format: 'text',
});

describe('the gate room (generators/check/), called without the CLI', () => {
  afterEach(() => vi.restoreAllMocks());

  it('answers with data, writing nothing: the base it chose, the blocked change, the lint', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', ORDERS.replace('      note: {type: string}\n', ''));
    const stdout = vi.spyOn(process.stdout, 'write');
    const stderr = vi.spyOn(process.stderr, 'write');
    const run = await runGate(request(repo));
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
    if (run.kind !== 'gated') throw new Error(`expected a verdict, got ${run.kind}`);
    expect(run.base).toMatchObject({ kind: 'commit', why: 'the last release, HEAD' });
    expect(run.outcome.blocked.map((entry) => entry.finding.rule)).toEqual(['field-removed']);
    expect(run.consumers.kind).toBe('impact');
    expect(run.lint).toBeDefined();
  });

  it('reports a base it cannot see before the catalogue problems, as a result of its own', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', 'events: [');
    const run = await runGate(request(repo, 'HEAD~9999'));
    expect(run).toMatchObject({ kind: 'base-unseen', code: 'base-not-found' });
  });

  it('reports the current catalogue problems, located, once the base is fine', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', 'events: [');
    const run = await runGate(request(repo, 'HEAD'));
    expect(run.kind).toBe('catalogue-problems');
    if (run.kind === 'catalogue-problems') expect(run.problems[0]?.file).toMatch(/orders\.yaml$/);
  });
});
