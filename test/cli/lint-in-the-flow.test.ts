import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';

const FIXTURES = join(REPO, 'test', 'fixtures', 'lint');

/** A copy of a rule's bad fixture catalogue, in a temp project folder. */
function catalogueOf(rule: string): { project: string; dir: string } {
  const project = tempDir('eventry-lint-flow-');
  const dir = join(project, 'catalogue');
  cpSync(join(FIXTURES, rule, 'bad'), dir, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{"name": "lint-flow", "private": true}\n');
  return { project, dir };
}

describe('eventry check runs the lint', () => {
  it('fails the gate on a new lint error and passes once the baseline records it', async () => {
    const { project, dir } = catalogueOf('version-identical');
    const check = () => runCliInProcess(['check', '--catalogue', dir, '--base', dir], { cwd: project });
    const failing = await check();
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain(
      'error version-identical: Event `orders.placed-v2` has exactly the payload',
    );
    expect(failing.stdout).toContain('eventry check: lint: 2 errors, 0 warnings, 0 infos new: failed.');
    expect(failing.stdout).toMatch(/0 stale allow-list entries \(base .*\): failed\.\n$/);
    expect(
      (await runCliInProcess(['lint', '--catalogue', dir, '--write-baseline'], { cwd: project })).status,
    ).toBe(0);
    const passing = await check();
    expect(passing.status).toBe(0);
    expect(passing.stdout).toContain(
      'eventry check: lint: 0 errors, 0 warnings, 0 infos new, 2 in the baseline: passed.',
    );
  });

  it('passes on warnings, printing them (as annotations with --format github)', async () => {
    const { project, dir } = catalogueOf('unused-shape');
    const result = await runCliInProcess(['check', '--catalogue', dir, '--base', dir, '--format', 'github'], {
      cwd: project,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('::warning file=');
    expect(result.stdout).toContain('title=unused-shape::Shape `Orphan` is used by no event.');
  });
});

describe('eventry build prints a one-line lint count', () => {
  it('after a build, not on the no-op path', async () => {
    const { project, dir } = catalogueOf('unused-shape');
    const out = join(project, 'packages');
    const built = await runCliInProcess(['build', '--catalogue', dir, '--out', out], { cwd: project });
    expect(built.status).toBe(0);
    expect(built.stdout).toContain(
      'eventry: lint: 0 errors, 1 warning, 0 infos (run `eventry lint` for details).',
    );
    const again = await runCliInProcess(['build', '--catalogue', dir, '--out', out], { cwd: project });
    expect(again.stdout).toContain('nothing to do');
    expect(again.stdout).not.toContain('lint');
  });

  it('after an edit, counting the findings of the edited catalogue', async () => {
    const { project, dir } = catalogueOf('unused-shape');
    const out = join(project, 'packages');
    const build = () => runCliInProcess(['build', '--catalogue', dir, '--out', out], { cwd: project });
    expect((await build()).status).toBe(0);
    const orders = join(dir, 'orders.yaml');
    const text = readFileSync(orders, 'utf8');
    writeFileSync(
      orders,
      text.replace('shapes:\n', 'shapes:\n  Stray:\n    fields:\n      id: {type: string}\n'),
    );
    const edited = await build();
    expect(edited.status).toBe(0);
    expect(edited.stdout).toContain('eventry: built 1 events in 1 groups');
    expect(edited.stdout).toContain(
      'eventry: lint: 0 errors, 2 warnings, 0 infos (run `eventry lint` for details).',
    );
    // An edit that breaks the catalogue: the build fails, and nothing of the lint is printed.
    writeFileSync(orders, text.replace('type: [OrderLine]', 'type: [MissingShape]'));
    const broken = await build();
    expect(broken.status).toBe(1);
    expect(`${broken.stdout}${broken.stderr}`).not.toContain('eventry: lint');
  });
});
