import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../cli/in-process.js';
import { REPO, tempDir } from '../helpers.js';
import { makeRepo, type TestRepo } from '../sources/git-repo.js';

const BEFORE = join(REPO, 'test', 'fixtures', 'diff', 'field-removed', 'before');
const ORDERS = readFileSync(join(BEFORE, 'orders.yaml'), 'utf8');
const dropNote = () => ORDERS.replace('      note: {type: string}\n', '');
const addCoupon = (type: string) =>
  ORDERS.replace(
    '      note: {type: string}\n',
    `      note: {type: string}\n      coupon: {type: ${type}}\n`,
  );
const manifest = (version: string) =>
  `{\n  "name": "@fixture-events/orders",\n  "version": "${version}",\n  "type": "module"\n}\n`;

/** `eventry check` with no `EVENTRY_BASE` from the environment running the tests, unless given. */
const check = (dir: string, env: Record<string, string> = {}, ...args: string[]) =>
  runCliInProcess(['check', ...args], { cwd: dir, env: { EVENTRY_BASE: '', ...env } });

/** A repository whose first commit records catalogue 1.0.0 and package 1.0.0: the first release. */
function released(): TestRepo {
  const repo = makeRepo();
  repo.copy(BEFORE, 'catalogue');
  repo.write('packages/orders/package.json', manifest('1.0.0'));
  repo.commit('release 1.0.0');
  return repo;
}

/** What `eventry version` writes and the release commit records: the package and catalogue versions. */
function release(repo: TestRepo, version: string): string {
  const config = readFileSync(join(repo.dir, 'catalogue/eventry.config.yaml'), 'utf8');
  repo.write('catalogue/eventry.config.yaml', config.replace(/^version: .*$/m, `version: ${version}`));
  repo.write('packages/orders/package.json', manifest(version));
  return repo.commit(`release ${version}`);
}

/** `git clone --depth 1`: what most CI systems check out. */
function shallowClone(repo: TestRepo): string {
  const dir = join(tempDir('eventry-shallow-'), 'clone');
  execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, dir]);
  return dir;
}

describe('the gate never passes by default: a base it cannot see is a usage error', () => {
  it('fails with exit 2 in a depth-1 clone whose HEAD breaks an event, and says how to fetch history', {
    timeout: 60_000,
  }, async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.commit('break');
    const clone = shallowClone(repo);
    const result = await check(clone);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^eventry check: error shallow-history: this clone is shallow/);
    expect(result.stderr).toContain('`git fetch --unshallow --tags`');
    expect(result.stderr).toContain('`fetch-depth: 0`');
    expect(result.stderr).toContain('`GIT_DEPTH: 0`');
    expect(result.stdout).not.toContain('passed');
    // Once the history is fetched, the gate sees the release and blocks the break.
    execFileSync('git', ['fetch', '-q', '--unshallow'], { cwd: clone });
    const full = await check(clone);
    expect(full.stdout).toContain('error field-removed: order.placed-v1 note:');
    expect(full.status).toBe(1);
  });

  it('fails with exit 2 on --base HEAD~9999 and on EVENTRY_BASE=HEAD~9999, as on an unknown name', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.commit('break');
    const flag = await check(repo.dir, {}, '--base', 'HEAD~9999');
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(
      /^eventry check: error base-not-found: --base `HEAD~9999` names no commit in this repository\.\n {4}fix: /,
    );
    const env = await check(repo.dir, { EVENTRY_BASE: 'HEAD~9999' });
    expect(env.status).toBe(2);
    expect(env.stderr).toMatch(
      /^eventry check: error base-not-found: EVENTRY_BASE `HEAD~9999` names no commit/,
    );
    const typo = await check(repo.dir, { EVENTRY_BASE: 'mian' });
    expect(typo.status).toBe(2);
    expect(`${flag.stdout}${env.stdout}${typo.stdout}`).not.toContain('passed');
  });

  it('says in a depth-1 clone that a base it lacks may just not be fetched', {
    timeout: 60_000,
  }, async () => {
    const repo = released();
    repo.write('README.md', 'docs\n');
    repo.commit('docs');
    const result = await check(shallowClone(repo), { EVENTRY_BASE: 'HEAD~1' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'fix: this clone is shallow: fetch the history (`git fetch --unshallow --tags`',
    );
  });

  it('fails with exit 2, not an internal error, for a catalogue outside the current repository', async () => {
    const repo = released();
    const elsewhere = join(tempDir('eventry-outside-'), 'catalogue');
    cpSync(BEFORE, elsewhere, { recursive: true });
    writeFileSync(join(elsewhere, 'orders.yaml'), dropNote());
    for (const args of [
      ['--catalogue', elsewhere],
      ['--catalogue', elsewhere, '--base', 'HEAD'],
    ]) {
      const result = await check(repo.dir, {}, ...args);
      expect(result.stderr).toMatch(
        /^eventry check: error not-a-repository: the catalogue `.*` is outside the git repository of the current folder/,
      );
      expect(result.status).toBe(2);
      expect(result.stdout).not.toContain('passed');
    }
    // A catalogue folder as the base needs no history: the break is seen.
    const folderBase = await check(repo.dir, {}, '--catalogue', elsewhere, '--base', BEFORE);
    expect(folderBase.stdout).toContain('error field-removed: order.placed-v1 note:');
    expect(folderBase.status).toBe(1);
  });

  it('checks a catalogue named through a symbolic link against the history of the catalogue itself', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.commit('break');
    // Git knows the folder by its name: a link has no history of its own, in the repository or out of it.
    symlinkSync(join(repo.dir, 'catalogue'), join(repo.dir, 'catalogue-link'));
    const outside = join(tempDir('eventry-link-'), 'catalogue');
    symlinkSync(join(repo.dir, 'catalogue'), outside);
    for (const link of ['catalogue-link', outside]) {
      const result = await check(repo.dir, {}, '--catalogue', link);
      expect(result.stdout).toMatch(/^eventry check: base commit [0-9a-f]{7} \(the last release\)\./);
      expect(result.stdout).toContain('error field-removed: order.placed-v1 note:');
      expect(result.status).toBe(1);
    }
  });

  it('fails with exit 2 when the base catalogue does not load, instead of passing', async () => {
    const repo = released();
    repo.write(
      'catalogue/orders.yaml',
      ORDERS.replace('type: Money, required: true}', 'type: Mony, required: true}'),
    );
    repo.commit('broken');
    repo.write('catalogue/orders.yaml', dropNote());
    const result = await check(repo.dir, {}, '--base', 'HEAD');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^eventry check: error base-does-not-load: the catalogue at the base .* has 1 problem/,
    );
  });

  it('checks an uncommitted change on a release commit against that release: a field it added cannot change type', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', addCoupon('string'));
    repo.commit('add coupon');
    const head = release(repo, '1.1.0');
    repo.write('catalogue/orders.yaml', addCoupon('integer'));
    const result = await check(repo.dir);
    expect(result.stdout).toContain(
      `eventry check: base commit ${head.slice(0, 7)} (the last release, HEAD).`,
    );
    expect(result.stdout).toContain('error type-changed: order.placed-v1 coupon:');
    expect(result.status).toBe(1);
    // Committed, the release commit is no longer HEAD: still checked against it.
    repo.commit('coupon is a number');
    expect((await check(repo.dir)).status).toBe(1);
  });

  it('names the same base in check and version --dry-run for the same release', async () => {
    const repo = released();
    const head = release(repo, '1.1.0');
    repo.write('catalogue/orders.yaml', addCoupon('string'));
    const gate = await check(repo.dir);
    const plan = await runCliInProcess(['version', '--dry-run'], { cwd: repo.dir });
    const short = head.slice(0, 7);
    expect(gate.stdout).toContain(`base commit ${short} (`);
    expect(plan.stdout).toContain(
      `@fixture-events/orders: 1.1.0 → 1.2.0 (minor since commit ${short}; would write`,
    );
    expect(plan.status).toBe(0);
  });

  it('compares a catalogue never released before HEAD with the root commit: an empty catalogue when it has none', async () => {
    const repo = makeRepo();
    repo.write('README.md', 'hi\n');
    const root = repo.commit('readme');
    repo.copy(BEFORE, 'catalogue');
    repo.commit('catalogue');
    const result = await check(repo.dir);
    expect(result.stdout).toContain(
      `base commit ${root.slice(0, 7)} (the root commit: nothing released yet).`,
    );
    expect(result.stdout).toMatch(/: passed\.\n$/);
    expect(result.status).toBe(0);
    // The catalogue's first commit is its first release: a break after it is seen.
    repo.write('catalogue/orders.yaml', dropNote());
    repo.commit('break');
    expect((await check(repo.dir)).status).toBe(1);
  });
});
