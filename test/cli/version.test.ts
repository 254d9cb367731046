import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestRepo } from '../sources/git-repo.js';
import { runCliInProcess } from './in-process.js';
import { changedSinceRelease, FIXTURE, manifest, released } from './version-repo.js';

const read = (repo: TestRepo, path: string) => readFileSync(join(repo.dir, path), 'utf8');
const version = (repo: TestRepo) => runCliInProcess(['version'], { cwd: repo.dir });
const snapshot = (repo: TestRepo) =>
  [
    'packages/orders/package.json',
    'packages/orders/CHANGELOG.md',
    'packages/payments/package.json',
    'packages/payments/CHANGELOG.md',
    'catalogue/eventry.config.yaml',
  ].map((path) => (existsSync(join(repo.dir, path)) ? read(repo, path) : undefined));

describe('eventry version (compiled CLI)', () => {
  it('bumps each group package from its own findings, writes only `version`, prepends a changelog; twice changes nothing', {
    timeout: 60_000,
  }, async () => {
    const repo = released();
    repo.copy(join(FIXTURE, 'after'), 'catalogue');
    repo.commit('changes');
    // A package the build just made and nobody released yet.
    repo.write('packages/returns/package.json', manifest('returns', '1.0.0'));

    const first = await version(repo);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const release = repo.git('rev-parse', '--short=7', 'HEAD~1');
    expect(first.stdout).toBe(
      [
        `@shop-events/orders: 1.4.2 → 2.0.0 (major since commit ${release}; wrote package.json, CHANGELOG.md)`,
        `@shop-events/payments: 1.0.3 → 2.0.0 (major since commit ${release}; wrote package.json, CHANGELOG.md)`,
        '@shop-events/returns: never released: keeps its version',
        'catalogue version: 1.4.0 → 2.0.0 (major; wrote eventry.config.yaml)',
        '',
      ].join('\n'),
    );
    expect(read(repo, 'packages/orders/package.json')).toBe(manifest('orders', '2.0.0'));
    const changelog = read(repo, 'packages/orders/CHANGELOG.md');
    expect(changelog).toMatch(
      /^# Changelog of `@shop-events\/orders`\n\n.*\n\n## 2\.0\.0\n\nMajor release: 4 breaking changes/,
    );
    expect(changelog).toContain('### `order.placed-v2`\n\n- Non-breaking: New version `order.placed-v2`');
    // The shared shape `Money` changed: the payments package breaks too, and says through what.
    expect(read(repo, 'packages/payments/CHANGELOG.md')).toContain(
      '## 2.0.0\n\nMajor release: 1 breaking change, 1 documentation change.',
    );
    expect(read(repo, 'packages/payments/CHANGELOG.md')).toContain(
      '### Shape `Money`\n\n- **Breaking** (breaks producers): Field `currency` is now restricted to `EUR`, `GBP`. `enum-added` Reaches `payment.captured-v1` (`amount.currency`).',
    );
    expect(read(repo, 'catalogue/eventry.config.yaml')).toContain('\nversion: 2.0.0\n');
    expect(read(repo, 'catalogue/eventry.config.yaml')).toMatch(/^# yaml-language-server/);

    const files = snapshot(repo);
    const second = await version(repo);
    expect(second.status).toBe(0);
    expect(snapshot(repo)).toEqual(files);
    expect(second.stdout).toContain(
      `@shop-events/orders: 1.4.2 → 2.0.0 (major since commit ${release}; already done)`,
    );
    expect(second.stdout).toContain('catalogue version: 2.0.0 (major since 1.4.0: in place)');

    // Once the bump is committed it is the release: nothing more to do.
    repo.commit('release 2.0.0');
    const third = await version(repo);
    expect(third.stdout).toContain(
      `@shop-events/orders: unchanged since commit ${repo.git('rev-parse', '--short=7', 'HEAD')}`,
    );
    expect(snapshot(repo)).toEqual(files);
  });

  it('prefers a release tag, and prepends above the previous entry', async () => {
    const repo = released();
    repo.git('tag', '@shop-events/orders@1.5.0');
    repo.write('packages/orders/CHANGELOG.md', '# Changelog\n\n## 1.5.0\n\nOlder.\n');
    repo.write(
      'catalogue/orders.yaml',
      read(repo, 'catalogue/orders.yaml').replace(
        '      note: {type: string}\n',
        '      note: {type: string}\n      coupon: {type: string}\n',
      ),
    );
    const result = await version(repo);
    const head = repo.git('rev-parse', '--short=7', 'HEAD');
    expect(result.stdout).toContain(
      `@shop-events/orders: 1.5.0 → 1.6.0 (minor since commit ${head} (tag @shop-events/orders@1.5.0); wrote package.json, CHANGELOG.md)`,
    );
    expect(result.stdout).toContain(
      `@shop-events/payments: unchanged since commit ${repo.git('rev-parse', '--short=7', 'HEAD')}`,
    );
    expect(read(repo, 'packages/orders/CHANGELOG.md')).toBe(
      '# Changelog\n\n## 1.6.0\n\nMinor release: 1 non-breaking change.\n\n### `order.placed-v1`\n\n- Non-breaking: New field `coupon` (`string`, optional). `optional-field-added`\n\n## 1.5.0\n\nOlder.\n',
    );
  });

  it('--dry-run writes nothing', async () => {
    const repo = released();
    repo.copy(join(FIXTURE, 'after'), 'catalogue');
    const files = snapshot(repo);
    const result = await runCliInProcess(['version', '--dry-run'], { cwd: repo.dir });
    expect(result.stdout).toContain('@shop-events/orders: 1.4.2 → 2.0.0 (major since commit');
    expect(result.stdout).toContain('would write package.json, CHANGELOG.md');
    expect(snapshot(repo)).toEqual(files);
  });
});

describe('the README release loop leaves nothing stale (regression: packages/catalogue kept the old catalogue version)', () => {
  it('after `version`, `build` has nothing to do and a clean rebuild (CI freshness check) changes no committed file', {
    timeout: 120_000,
  }, async () => {
    const { repo, cli } = await changedSinceRelease();
    const bumped = await cli('version');
    expect(bumped.status).toBe(0);
    expect(bumped.stdout).toContain('catalogue version: 1.4.0 → 2.0.0 (major; wrote eventry.config.yaml)');
    expect(read(repo, 'packages/catalogue/openapi.json')).toContain('"version": "2.0.0"');
    expect((await cli('build')).stdout).toMatch(/^eventry: nothing to do/);

    repo.commit('release 2.0.0');
    repo.remove('packages/.eventry-build-state.json');
    repo.remove('.eventry');
    expect((await cli('build', '--force', '--no-cache')).status).toBe(0);
    expect(repo.git('status', '--porcelain')).toBe('');
  });
});
