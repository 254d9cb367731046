import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CI_CHECK_COMMAND } from '../../generators/cli/check.js';
import { makeRepo, type TestRepo } from '../generators/diff/git-repo.js';
import { REPO, runCli } from '../helpers.js';

const BEFORE = join(REPO, 'test', 'fixtures', 'diff', 'field-removed', 'before');
const ORDERS = readFileSync(join(BEFORE, 'orders.yaml'), 'utf8');
const MODELINE = '# yaml-language-server: $schema=../generators/load/schema/allow-list.schema.json\n';

/** A repository whose HEAD holds the fixture catalogue. */
function released(): TestRepo {
  const repo = makeRepo();
  repo.copy(BEFORE, 'catalogue');
  repo.commit('release');
  return repo;
}
const check = (repo: TestRepo, ...args: string[]) => runCli(['check', ...args], { cwd: repo.dir });
const dropNote = () => ORDERS.replace('      note: {type: string}\n', '');

describe('eventry check --base: the version policy gate (compiled CLI)', () => {
  it('blocks a breaking change to an existing event version and names the fix', () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    const result = check(repo, '--base', 'HEAD');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'catalogue/orders.yaml:16:3: error field-removed: order.placed-v1 note: Field `note` (`string`, optional) was removed. Breaks producers and consumers.\n' +
        '    fix: An existing event version only grows by adding optional fields: add `order.placed-v2` instead (and deprecate `order.placed-v1`)',
    );
    expect(result.stdout).toMatch(
      /1 breaking change\(s\) to existing event versions blocked, 0 allowed .*: failed\.\n$/,
    );
  });

  it('blocks it after the commit too (.ci/run: --base HEAD~1), in GitHub annotation form on request', () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.commit('break');
    const result = check(repo, '--base', 'HEAD~1', '--format', 'github');
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /^::error file=catalogue\/orders\.yaml,line=16,col=3,title=field-removed::order\.placed-v1 note: /m,
    );
  });

  it('accepts the break through a reviewed allow-list entry, then flags the entry once it allows nothing', () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.write(
      'catalogue/allow-breaking.yaml',
      `${MODELINE}allow:\n  - event: order.placed-v1\n    rule: field-removed\n    attr: note\n    reason: Never sent by the platform (ADR-7).\n`,
    );
    repo.commit('break, allowed');
    const allowed = check(repo, '--base', 'HEAD~1');
    expect(allowed.stdout).toContain(
      'catalogue/orders.yaml:16:3: warning field-removed: order.placed-v1 note: Field `note` (`string`, optional) was removed. Allowed: Never sent by the platform (ADR-7).',
    );
    expect(allowed.stdout).toMatch(
      /0 breaking change\(s\) .* blocked, 1 allowed by allow-breaking\.yaml.*: passed\.\n$/,
    );
    expect(allowed.status).toBe(0);

    // The next commit: the entry came with the base and its change has landed: a reminder, not a failure.
    repo.write(
      'catalogue/orders.yaml',
      dropNote().replace('An order was placed.', 'An order was placed by a customer.'),
    );
    repo.commit('docs');
    const later = check(repo, '--base', 'HEAD~1');
    expect(later.status).toBe(0);
    expect(later.stdout).toContain('catalogue/allow-breaking.yaml:3:5: warning consumed-allow-entry:');
  });

  it('fails on an allow-list entry that matches nothing it brings', () => {
    const repo = released();
    repo.write('catalogue/orders.yaml', dropNote());
    repo.write(
      'catalogue/allow-breaking.yaml',
      `allow:\n  - {event: order.placed-v1, rule: field-removed, attr: note, reason: ok}\n  - {event: order.placed-v1, rule: type-changed, attr: note, reason: ok}\n`,
    );
    const result = check(repo, '--base', 'HEAD');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'catalogue/allow-breaking.yaml:3:5: error stale-allow-entry: The allow-list entry for `order.placed-v1` (`type-changed`, `note`) matches no breaking change against HEAD',
    );
  });

  it('fails on an allow-list file that is not valid, located', () => {
    const repo = released();
    repo.write(
      'catalogue/allow-breaking.yaml',
      'allow:\n  - {event: order.placed-v1, rule: field-removed}\n',
    );
    const result = check(repo, '--base', 'HEAD');
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
  ])('passes %s', (_name, text) => {
    const repo = released();
    repo.write('catalogue/orders.yaml', text);
    const result = check(repo, '--base', 'HEAD');
    expect(result.stdout).toMatch(/: passed\.\n$/);
    expect(result.status).toBe(0);
  });

  it('passes when the base does not exist or has no catalogue (a first commit)', () => {
    const first = released();
    const none = check(first, '--base', 'HEAD~1');
    expect(none.stdout).toBe(
      'eventry check: `HEAD~1` names no commit in this repository. Nothing to compare with: passed.\n',
    );
    expect(none.status).toBe(0);
    const late = makeRepo();
    late.write('README.md', 'hi\n');
    late.commit('readme');
    late.copy(BEFORE, 'catalogue');
    late.commit('catalogue');
    const empty = check(late, '--base', 'HEAD~1');
    expect(empty.status).toBe(0);
    expect(empty.stdout).toMatch(/has no catalogue in `catalogue\/`\. Nothing to compare with: passed\./);
  });

  it('fails on a catalogue that does not load, exits 2 on usage errors', () => {
    const repo = released();
    repo.write(
      'catalogue/orders.yaml',
      ORDERS.replace('type: Money, required: true}', 'type: Mony, required: true}'),
    );
    const broken = check(repo, '--base', 'HEAD');
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(
      /catalogue\/orders\.yaml:\d+:\d+: error unknown-shape: Shape `Mony` is not defined\./,
    );
    expect(check(repo).status).toBe(2);
    expect(check(repo, '--base', 'no-such-ref').stderr).toMatch(/--base `no-such-ref` is neither/);
  });

  it('documents the command .ci/run runs', () => {
    expect(CI_CHECK_COMMAND).toBe('node dist/scripts/eventry.js check --base HEAD~1');
  });
});
