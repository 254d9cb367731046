import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO } from '../helpers.js';
import { makeRepo, type TestRepo } from '../sources/git-repo.js';
import { type CliResult, runCliInProcess } from './in-process.js';

/** The report fixture the `version` suites release: `before` is catalogue 1.4.0, `after` breaks it. */
export const FIXTURE = join(REPO, 'test', 'fixtures', 'diff-report');

/** The package.json of the fixture's group package `slug` at `version`. */
export const manifest = (slug: string, version: string) =>
  `{\n  "name": "@shop-events/${slug}",\n  "version": "${version}",\n  "type": "module"\n}\n`;

/** A repository with the report fixture's `before` released: orders 1.4.2, payments 1.0.3. */
export function released(): TestRepo {
  const repo = makeRepo();
  repo.copy(join(FIXTURE, 'before'), 'catalogue');
  repo.write('packages/orders/package.json', manifest('orders', '1.4.2'));
  repo.write('packages/payments/package.json', manifest('payments', '1.0.3'));
  repo.commit('release');
  return repo;
}

/**
 * The README release loop up to `version`: the fixture's `before` built (and its docs portal written,
 * with `docs`) and committed as release 1.4.0, then `after` built the same way and committed as a
 * change. The build state and `.eventry/` are ignored, as the README's set-up says. `cli` runs eventry
 * in the repository.
 */
export async function changedSinceRelease(
  options: { docs?: boolean } = {},
): Promise<{ repo: TestRepo; cli: (...args: string[]) => Promise<CliResult> }> {
  const repo = makeRepo();
  repo.copy(join(FIXTURE, 'before'), 'catalogue');
  repo.write('.gitignore', 'packages/.eventry-build-state.json\npackages/.eventry-build-state/\n.eventry/\n');
  const cli = (...args: string[]) => runCliInProcess(args, { cwd: repo.dir });
  const build = async () => {
    expect((await cli('build')).status).toBe(0);
    if (options.docs) expect((await cli('docs')).status).toBe(0);
  };
  await build();
  repo.commit('release 1.4.0');

  repo.copy(join(FIXTURE, 'after'), 'catalogue');
  await build();
  repo.commit('change');
  return { repo, cli };
}
