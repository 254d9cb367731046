import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeConflict, type PlanEntry } from '../../generators/publish/plan.js';
import { publishPackages } from '../../generators/publish/publish.js';
import { tempDir } from '../helpers.js';
import { FakeRegistry, writePackage } from './fake-npm-registry.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A packages folder with three group packages and the private catalogue package. */
function setUp() {
  const out = tempDir('eventry-publish-');
  folders.push(out);
  for (const slug of ['alpha', 'beta', 'gamma']) writePackage(out, slug);
  writePackage(out, 'catalogue');
  const catalogue = join(out, 'catalogue', 'package.json');
  writeFileSync(
    catalogue,
    JSON.stringify({ name: '@platform-events/catalogue', version: '1.0.0', private: true }),
  );
  const registry = new FakeRegistry();
  const run = (extra: { dryRun?: boolean } = {}) =>
    publishPackages({ registry: registry.url, out, npm: registry.npm, fetch: registry.fetch, ...extra });
  return { out, registry, run };
}

const actions = (outcome: Awaited<ReturnType<ReturnType<typeof setUp>['run']>>) =>
  Object.fromEntries(
    outcome.plan.map((entry) => [entry.local.name.replace('@platform-events/', ''), entry.action]),
  );

describe('publishPackages', () => {
  it('publishes every group package that is missing, never the private catalogue package', async () => {
    const { registry, run } = setUp();
    const outcome = await run();
    expect(outcome.failed).toEqual([]);
    expect(outcome.published.map((p) => `${p.name}@${p.version} ${p.tag}`)).toEqual([
      '@platform-events/alpha@1.0.0 latest',
      '@platform-events/beta@1.0.0 latest',
      '@platform-events/gamma@1.0.0 latest',
    ]);
    expect([...registry.packages.keys()].sort()).toEqual([
      '@platform-events/alpha',
      '@platform-events/beta',
      '@platform-events/gamma',
    ]);
  });

  it('is idempotent: a second run publishes nothing and says every package is up to date', async () => {
    const { registry, run } = setUp();
    await run();
    const attempts = registry.publishAttempts.length;
    const again = await run();
    expect(again.published).toEqual([]);
    expect(actions(again)).toEqual({ alpha: 'up-to-date', beta: 'up-to-date', gamma: 'up-to-date' });
    expect(registry.publishAttempts.length).toBe(attempts);
  });

  it('after a run that failed half-way, publishes exactly what is still missing', async () => {
    const { registry, run } = setUp();
    registry.failPublish.add('@platform-events/beta');
    const first = await run();
    expect(first.failed).toEqual([
      { name: '@platform-events/beta', version: '1.0.0', error: 'not published: ECONNRESET: socket hang up' },
    ]);
    expect(first.published.map((p) => p.name)).toEqual(['@platform-events/alpha', '@platform-events/gamma']);

    const second = await run();
    expect(second.failed).toEqual([]);
    expect(second.published.map((p) => p.name)).toEqual(['@platform-events/beta']);
    expect(actions(second)).toEqual({ alpha: 'up-to-date', beta: 'publish', gamma: 'up-to-date' });
  });

  it('--dry-run asks the registry but publishes nothing', async () => {
    const { registry, run } = setUp();
    const outcome = await run({ dryRun: true });
    expect(actions(outcome)).toEqual({ alpha: 'publish', beta: 'publish', gamma: 'publish' });
    expect(outcome.published).toEqual([]);
    expect(registry.publishAttempts).toEqual([]);
  });

  it('refuses a version published with other content, and then publishes nothing at all', async () => {
    const { out, registry, run } = setUp();
    await run();
    writePackage(out, 'beta', '1.0.0', 'export const slug = "changed without a new version";\n');
    writePackage(out, 'delta');
    const attempts = registry.publishAttempts.length;
    const outcome = await run();
    expect(actions(outcome)).toEqual({
      alpha: 'up-to-date',
      beta: 'conflict',
      delta: 'publish',
      gamma: 'up-to-date',
    });
    const conflict = outcome.plan.find((entry) => entry.action === 'conflict');
    expect(conflict).toMatchObject({ differingFiles: ['index.js', 'package.json'] });
    expect(registry.publishAttempts.length).toBe(attempts);
    expect(registry.packages.has('@platform-events/delta')).toBe(false);
  });

  it('takes the same files packed into other bytes (another npm, another zlib) as up to date', async () => {
    const { out, registry, run } = setUp();
    registry.seed(join(out, 'alpha'), 'sha512-PACKED-ELSEWHERE');
    const outcome = await run();
    expect(actions(outcome)).toEqual({ alpha: 'up-to-date', beta: 'publish', gamma: 'publish' });
    expect(
      registry.calls.some((args) => args[0] === 'pack' && args[1] === '@platform-events/alpha@1.0.0'),
    ).toBe(true);
  });

  it('sends scoped packages to the given registry even if ~/.npmrc maps the scope elsewhere', async () => {
    const { registry, run } = setUp();
    await run();
    const publish = registry.calls.find((args) => args[0] === 'publish')!;
    expect(publish).toContain(`--registry=${registry.url}`);
    expect(publish).toContain(`--@platform-events:registry=${registry.url}`);
  });

  it('tags a new 1.x after 2.0.0 as latest-1, so latest keeps pointing at 2.0.0', async () => {
    const { out, registry, run } = setUp();
    writePackage(out, 'alpha', '2.0.0');
    await run();
    writePackage(out, 'alpha', '1.1.0', 'export const backport = 1;\n');
    const outcome = await run();
    expect(outcome.published).toMatchObject([
      { name: '@platform-events/alpha', version: '1.1.0', tag: 'latest-1' },
    ]);
    expect(registry.distTags.get('@platform-events/alpha')).toEqual({ latest: '2.0.0', 'latest-1': '1.1.0' });
  });

  it('publishes nothing when a package does not record the catalogue content it was built from', async () => {
    const { out, registry, run } = setUp();
    writeFileSync(
      join(out, 'gamma', 'package.json'),
      JSON.stringify({
        name: '@platform-events/gamma',
        version: '1.0.0',
        type: 'module',
        exports: './index.js',
      }),
    );
    await expect(run()).rejects.toThrow(
      '@platform-events/gamma record no `eventry.sourceHash` in package.json: not built by `eventry build`; nothing was published.',
    );
    expect(registry.publishAttempts).toEqual([]);
  });
});

/** The run time package as `eventry build` marks it: `eventry.runtime`, named so it sorts last by name. */
function writeRuntime(out: string, body = 'export class EventValidationError extends Error {}\n'): void {
  const dir = writePackage(out, 'runtime', '1.0.0', body);
  const file = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { eventry: Record<string, unknown> };
  manifest.eventry.runtime = true;
  writeFileSync(file, JSON.stringify(manifest));
}

describe('publishPackages with the run time package', () => {
  it('publishes the run time first, alone, then the groups; a dry run lists it first', async () => {
    const { out, registry, run } = setUp();
    writeRuntime(out);
    const planned = await run({ dryRun: true });
    expect(planned.plan.map((entry) => `${entry.local.name} ${entry.action}`)).toEqual([
      '@platform-events/runtime publish',
      '@platform-events/alpha publish',
      '@platform-events/beta publish',
      '@platform-events/gamma publish',
    ]);
    const outcome = await run();
    expect(outcome.failed).toEqual([]);
    expect(registry.publishAttempts[0]).toBe('@platform-events/runtime@1.0.0');
    expect(registry.publishAttempts.slice(1).sort()).toEqual([
      '@platform-events/alpha@1.0.0',
      '@platform-events/beta@1.0.0',
      '@platform-events/gamma@1.0.0',
    ]);
  });

  it('publishes no group when the run time fails to publish (they could not be installed)', async () => {
    const { out, registry, run } = setUp();
    writeRuntime(out);
    registry.failPublish.add('@platform-events/runtime');
    const outcome = await run();
    expect(registry.publishAttempts).toEqual(['@platform-events/runtime@1.0.0']);
    expect(outcome.published).toEqual([]);
    expect(outcome.failed.map((failure) => `${failure.name}: ${failure.error}`)).toEqual([
      '@platform-events/alpha: not published: the run time package it depends on failed to publish',
      '@platform-events/beta: not published: the run time package it depends on failed to publish',
      '@platform-events/gamma: not published: the run time package it depends on failed to publish',
      '@platform-events/runtime: not published: ECONNRESET: socket hang up',
    ]);
  });

  it('refuses a changed run time under a published version, and says to raise RUNTIME_VERSION', async () => {
    const { out, registry, run } = setUp();
    writeRuntime(out);
    await run();
    writeRuntime(out, 'export class EventValidationError extends TypeError {}\n');
    const attempts = registry.publishAttempts.length;
    const outcome = await run();
    const conflict = outcome.plan.find((entry) => entry.action === 'conflict');
    expect(conflict?.local.name).toBe('@platform-events/runtime');
    expect(describeConflict(conflict as Extract<PlanEntry, { action: 'conflict' }>)).toContain(
      'raise RUNTIME_VERSION in the toolkit',
    );
    expect(registry.publishAttempts.length).toBe(attempts);
  });
});
