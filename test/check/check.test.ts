import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CI_CHECK_COMMAND } from '../../generators/cli/check.js';
import { runCliInProcess } from '../cli/in-process.js';
import { REPO } from '../helpers.js';
import { makeRepo, type TestRepo } from '../sources/git-repo.js';

const BEFORE = join(REPO, 'test', 'fixtures', 'diff', 'field-removed', 'before');
const ORDERS = readFileSync(join(BEFORE, 'orders.yaml'), 'utf8');
const MODELINE = '# yaml-language-server: $schema=../generators/schema/source/allow-list.schema.json\n';

/** A repository whose HEAD holds the fixture catalogue. */
function released(): TestRepo {
  const repo = makeRepo();
  repo.copy(BEFORE, 'catalogue');
  repo.commit('release');
  return repo;
}
const check = (repo: TestRepo, ...args: string[]) => runCliInProcess(['check', ...args], { cwd: repo.dir });
/** `eventry check` with an environment of its own (a CI system's `EVENTRY_BASE`). */
function checkWith(repo: TestRepo, env: Record<string, string | undefined>, ...args: string[]) {
  return runCliInProcess(['check', ...args], { cwd: repo.dir, env: { EVENTRY_BASE: '', ...env } });
}
/** What `eventry version` commits: the catalogue version moved (here by hand, to stay small). */
function release(repo: TestRepo, version: string): string {
  const config = readFileSync(join(repo.dir, 'catalogue/eventry.config.yaml'), 'utf8');
  repo.write('catalogue/eventry.config.yaml', config.replace(/^version: .*$/m, `version: ${version}`));
  return repo.commit(`release ${version}`);
}
const ALLOW_NOTE = `${MODELINE}allow:\n  - event: order.placed-v1\n    rule: field-removed\n    attr: note\n    reason: Never sent by the platform (ADR-7).\n`;
const dropNote = () => ORDERS.replace('      note: {type: string}\n', '');

describe('eventry check --base: the version policy gate (compiled CLI)', () => {
  it('blocks a breaking change to an existing event version and names the fix', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    const result = await check(repo, '--base', 'HEAD');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'catalogue/orders.yaml:16:3: error field-removed: order.placed-v1 note: Field `note` (`string`, optional) was removed. Breaks producers and consumers.\n' +
        '    fix: An existing event version only grows by adding optional fields: add `order.placed-v2` instead (and deprecate `order.placed-v1`)',
    );
    expect(result.stdout).toMatch(
      /1 breaking change\(s\) to existing event versions blocked, 0 allowed .*: failed\.\n$/,
    );
  });

  it('blocks it after the commit too (.ci/run: no --base, the last release), in GitHub annotation form on request', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.commit('break');
    const result = await check(repo, '--format', 'github');
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /^::error file=catalogue\/orders\.yaml,line=16,col=3,title=field-removed::order\.placed-v1 note: /m,
    );
  });

  it('checks a push of several commits as a whole: deprecate in one commit, remove in the next is caught', async () => {
    const abrupt = join(REPO, 'test', 'fixtures', 'diff', 'event-removed-without-deprecation');
    const repo = makeRepo();
    repo.copy(join(abrupt, 'before'), 'catalogue');
    const first = repo.commit('release 1.0.0');
    const orders = readFileSync(join(abrupt, 'before', 'orders.yaml'), 'utf8');
    repo.write(
      'catalogue/orders.yaml',
      orders.replace('  order.cancelled-v1:\n', '  order.cancelled-v1:\n    deprecated: {since: 1.1.0}\n'),
    );
    repo.commit('deprecate');
    repo.copy(join(abrupt, 'after'), 'catalogue');
    repo.commit('remove');
    // HEAD~1 (the deprecation) is no release: against it the removal looks announced.
    expect((await check(repo, '--base', 'HEAD~1')).status).toBe(0);
    const result = await check(repo);
    expect(result.stdout).toContain(`eventry check: base commit ${first.slice(0, 7)} (the last release).`);
    expect(result.stdout).toContain('error event-removed-without-deprecation: order.cancelled-v1: ');
    expect(result.status).toBe(1);
  });

  it('takes the base from EVENTRY_BASE when the CI system sets it, and from the nearest release tag', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.commit('break');
    repo.write('README.md', 'docs\n');
    repo.commit('docs');
    expect((await checkWith(repo, {})).status).toBe(1);
    const fromEnv = await checkWith(repo, { EVENTRY_BASE: 'HEAD~1' });
    expect(fromEnv.stdout).toMatch(
      /^eventry check: base commit [0-9a-f]{7} \(HEAD~1, from EVENTRY_BASE\)\.\n/,
    );
    expect(fromEnv.status).toBe(0);
    repo.git('tag', '@fixture-events/orders@2.0.0', 'HEAD~1');
    const tagged = await checkWith(repo, {});
    expect(tagged.stdout).toContain('(tag @fixture-events/orders@2.0.0, the last release)');
    expect(tagged.status).toBe(0);
  });

  it('checks a release commit against the release before it, not against itself', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.commit('break');
    release(repo, '2.0.0');
    const result = await check(repo);
    expect(result.stdout).toContain('error field-removed: order.placed-v1 note:');
    expect(result.status).toBe(1);
  });

  it('keeps an allow-list entry valid until the release that carries it, warns after it, fails after the next', {
    timeout: 60_000,
  }, async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.write('catalogue/allow-breaking.yaml', ALLOW_NOTE);
    repo.commit('break, allowed');
    const allowed = await check(repo);
    expect(allowed.stdout).toContain(
      'catalogue/orders.yaml:16:3: warning field-removed: order.placed-v1 note: Field `note` (`string`, optional) was removed. Allowed: Never sent by the platform (ADR-7).',
    );
    expect(allowed.stdout).toMatch(
      /0 breaking change\(s\) .* blocked, 1 allowed by allow-breaking\.yaml.*: passed\.\n$/,
    );
    expect(allowed.status).toBe(0);

    // Stage 1: later commits of the same release cycle (the regression: it went stale on the next commit).
    repo.write(
      'catalogue/orders.yaml',
      dropNote().replace('An order was placed.', 'An order was placed by a customer.'),
    );
    repo.commit('docs');
    const later = await check(repo);
    expect(later.stdout).toContain('1 allowed by allow-breaking.yaml, 0 stale');
    expect(later.status).toBe(0);
    // The release commit itself is checked against the release before: still allowed.
    release(repo, '2.0.0');
    expect((await check(repo)).status).toBe(0);

    // Stage 2: after the release that carried it, a warning.
    repo.write('README.md', 'after the release\n');
    repo.commit('after 2.0.0');
    const carried = await check(repo);
    expect(carried.stdout).toContain(
      'catalogue/allow-breaking.yaml:3:5: warning consumed-allow-entry: The allow-list entry for `order.placed-v1` (`field-removed`) was carried by the release',
    );
    expect(carried.status).toBe(0);

    // Stage 3: a second release carried it too: an error.
    release(repo, '2.0.1');
    repo.write('README.md', 'after the next release\n');
    repo.commit('after 2.0.1');
    const expired = await check(repo);
    expect(expired.stdout).toContain('catalogue/allow-breaking.yaml:3:5: error expired-allow-entry:');
    expect(expired.status).toBe(1);
  });

  it('does not let an entry a release carried allow a new break of the same name', async () => {
    const repo = released();
    const noId = ORDERS.replace('      order_id: {type: string, required: true}\n', '');
    repo.write('catalogue/allow-breaking.yaml', ALLOW_NOTE.replace('attr: note', 'attr: order_id'));
    repo.write('catalogue/orders.yaml', noId);
    repo.commit('break, allowed');
    release(repo, '2.0.0');
    // `order_id` comes back and goes again: a new break, not the one the released entry was for.
    repo.write('catalogue/orders.yaml', ORDERS);
    repo.commit('restore');
    release(repo, '2.1.0');
    repo.write('catalogue/orders.yaml', noId);
    repo.commit('break again');
    const result = await check(repo);
    expect(result.stdout).toContain('error field-removed: order.placed-v1 order_id:');
    expect(result.status).toBe(1);
  });

  it('fails on an allow-list entry that matches nothing it brings', async () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.write(
      'catalogue/allow-breaking.yaml',
      `allow:\n  - {event: order.placed-v1, rule: field-removed, attr: note, reason: ok}\n  - {event: order.placed-v1, rule: type-changed, attr: note, reason: ok}\n`,
    );
    const result = await check(repo, '--base', 'HEAD');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'catalogue/allow-breaking.yaml:3:5: error stale-allow-entry: The allow-list entry for `order.placed-v1` (`type-changed`, `note`) matches no breaking change against HEAD',
    );
  });

  it('fails on an allow-list file that is not valid, located', async () => {
    const repo = released();
    repo.write(
      'catalogue/allow-breaking.yaml',
      'allow:\n  - {event: order.placed-v1, rule: field-removed}\n',
    );
    const result = await check(repo, '--base', 'HEAD');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'catalogue/allow-breaking.yaml:2:5: error invalid-value: Missing required key `reason`',
    );
  });

  it.each([
    [
      'an optional field added',
      ORDERS.replace(
        '      note: {type: string}\n',
        '      note: {type: string}\n      coupon: {type: string}\n',
      ),
    ],
    [
      'a new event version',
      `${ORDERS}  order.placed-v2:\n    extends: order.placed-v1\n    fields: {channel: {type: string, required: true}}\n`,
    ],
  ])('passes %s', async (_name, text) => {
    const repo = released();
    repo.write('catalogue/orders.yaml', text);
    const result = await check(repo, '--base', 'HEAD');
    expect(result.stdout).toMatch(/: passed\.\n$/);
    expect(result.status).toBe(0);
  });

  it('compares a first commit with an empty catalogue, and fails with exit 2 on a base it cannot see', async () => {
    const first = released();
    const alone = await check(first);
    expect(alone.stdout).toMatch(
      /^eventry check: base an empty catalogue \(nothing released before HEAD, the first commit\)\.\n.*: passed\.\n$/s,
    );
    expect(alone.status).toBe(0);
    const none = await check(first, '--base', 'HEAD~1');
    expect(none.stderr).toBe(
      'eventry check: error base-not-found: --base `HEAD~1` names no commit in this repository.\n' +
        '    fix: name a branch, tag or commit this repository holds with --base or EVENTRY_BASE (e.g. `origin/main`).\n',
    );
    expect(none.status).toBe(2);
    const late = makeRepo();
    late.write('README.md', 'hi\n');
    late.commit('readme');
    late.copy(BEFORE, 'catalogue');
    late.commit('catalogue');
    const empty = await check(late, '--base', 'HEAD~1');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/error base-without-catalogue: .* has no catalogue in `catalogue\/`\./);
  });

  it('fails on a catalogue that does not load, exits 2 on usage errors', async () => {
    const repo = released();
    repo.write(
      'catalogue/orders.yaml',
      ORDERS.replace('type: Money, required: true}', 'type: Mony, required: true}'),
    );
    const broken = await check(repo, '--base', 'HEAD');
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(
      /catalogue\/orders\.yaml:\d+:\d+: error unknown-shape: Shape `Mony` is not defined\./,
    );
    expect((await check(repo, '--base', 'no-such-ref')).stderr).toMatch(/--base `no-such-ref` is neither/);
  });

  it('documents the command .ci/run runs', () => {
    expect(CI_CHECK_COMMAND).toBe('node dist/scripts/eventry.js check');
    expect(readFileSync(join(REPO, '.ci/run'), 'utf8')).toContain(`${CI_CHECK_COMMAND} ||`);
  });
});
