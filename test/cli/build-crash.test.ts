import { cpSync, existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../generators/execute/lock.js';
import { JOURNAL_FILE, STAGING_DIR } from '../../generators/execute/write.js';
import { fixturePath, REPO, tempDir } from '../helpers.js';
import { comparable, emptyFolders, eventryAsync, readTree } from './output-tree.js';

/**
 * kill -9 during `eventry build` must leave the last good output as a whole or, once the next command
 * has recovered, the new one as a whole; never a mix, stray temporaries or orphans.
 */
describe('eventry build killed at any moment leaves the old output or the new one', () => {
  const work = tempDir('eventry-build-crash-');
  const oldCatalogue = join(work, 'old', 'catalogue');
  const newCatalogue = join(work, 'new', 'catalogue');
  const template = join(work, 'template');
  let oldSet: Record<string, string>;
  let newSet: Record<string, string>;
  let trial = 0;

  const build = (catalogue: string, out: string, env?: Record<string, string>, killAfterMs?: number) =>
    eventryAsync(['build', '--catalogue', catalogue, '--out', out], {
      ...(env ? { env } : {}),
      ...(killAfterMs === undefined ? {} : { killAfterMs }),
    });
  /** The output as a reader sees it: the transaction's own files left out. */
  const visible = (out: string) =>
    comparable(new Map([...readTree(out)].filter(([path]) => !isTransactionFile(path))));
  const copyOfOld = () => {
    const out = join(work, `trial-${++trial}`);
    cpSync(template, out, { recursive: true, preserveTimestamps: true });
    return out;
  };

  beforeAll(async () => {
    // The built packages import ajv at run time (`eventry validate` loads them).
    symlinkSync(join(REPO, 'node_modules'), join(work, 'node_modules'), 'dir');
    cpSync(fixturePath('small'), oldCatalogue, { recursive: true });
    cpSync(fixturePath('small'), newCatalogue, { recursive: true });
    // The new catalogue drops a group (its folder must go), adds one, drops an event and changes another.
    rmSync(join(newCatalogue, 'groups/billing.yaml'));
    writeFileSync(
      join(newCatalogue, 'groups/ledger.yaml'),
      'group:\n  slug: ledger\n  title: Ledger\nevents:\n  ledger.entry.posted-v1:\n    fields:\n      amount: {type: integer, required: true}\n',
    );
    const account = join(newCatalogue, 'groups/account.yaml');
    writeFileSync(
      account,
      readFileSync(account, 'utf8')
        .replace(/ {2}account\.removed-v1:\n(.*\n){2}/, '')
        .replace('replaced_by: account.removed-v2, ', '')
        .replace('is_imported: {type: boolean}', 'is_imported: {type: boolean, description: Migrated.}'),
    );

    const built = await build(oldCatalogue, template);
    expect(built.stderr).toBe('');
    // A hand-kept changelog (must survive) and a legacy orphan and temporary (must go).
    writeFileSync(join(template, 'account/CHANGELOG.md'), '# @fixture-events/account\n');
    writeFileSync(join(template, 'account/events/legacy-v9.js'), 'export {};\n');
    writeFileSync(join(template, 'billing/README.md.1a2b3c4d.tmp'), 'half');
    oldSet = visible(template);

    const fresh = join(work, 'fresh-new');
    const freshBuild = await build(newCatalogue, fresh);
    expect(freshBuild.stderr).toBe('');
    writeFileSync(join(fresh, 'account/CHANGELOG.md'), '# @fixture-events/account\n');
    newSet = visible(fresh);
    expect(Object.keys(newSet)).toContain('ledger/package.json');
    expect(Object.keys(newSet).some((path) => path.startsWith('billing/'))).toBe(false);
    expect(newSet['account/package.json']).not.toBe(oldSet['account/package.json']);
  }, 300_000);

  /** After recovery and after a normal build: exactly the new set, no temporaries, no empty folders. */
  async function expectConverges(out: string): Promise<void> {
    const rebuilt = await build(newCatalogue, out);
    expect(rebuilt.status).toBe(0);
    expect(visible(out)).toEqual(newSet);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
    expect(existsSync(join(out, JOURNAL_FILE))).toBe(false);
    expect(emptyFolders(out)).toEqual([]);
  }

  it.each([
    ['staging-half', 'old'],
    ['before-commit', 'old'],
    ['after-commit', 'new'],
    ['apply-half', 'new'],
    ['before-cleanup', 'new'],
  ] as const)(
    'killed at %s: never a mix; after the next command exactly the %s set',
    async (phase, after) => {
      const out = copyOfOld();
      const killed = await build(newCatalogue, out, { EVENTRY_TEST_CRASH_AT: phase });
      expect(killed.signal).toBe('SIGKILL');
      const committed = existsSync(join(out, JOURNAL_FILE));
      expect(committed).toBe(after === 'new');
      if (!committed) expect(visible(out)).toEqual(oldSet);

      // The next command that reads the output recovers it first: validate reads the built packages.
      const payload = join(work, `payload-${trial}.json`);
      writeFileSync(payload, '{"account_number": "A-1", "account_user_emails": []}');
      const validated = await eventryAsync(['validate', 'account.created-v1', payload, '--out', out]);
      expect(validated.stderr).toBe('');
      expect(validated.status).toBe(0);
      expect(visible(out)).toEqual(after === 'new' ? newSet : oldSet);
      expect(readTree(out).has(JOURNAL_FILE)).toBe(false);
      // The killed build's lock too: its process is gone.
      expect(readTree(out).has(LOCK_FILE)).toBe(false);
      expect(existsSync(join(out, STAGING_DIR))).toBe(false);
      expect(emptyFolders(out)).toEqual([]);
      if (after === 'new') {
        // The build state was committed with the files: the next build knows there is nothing to do.
        const again = await build(newCatalogue, out);
        expect(again.stdout).toMatch(/nothing to do/);
      }
      await expectConverges(out);
    },
    120_000,
  );

  it('killed again while recovering: the next command still finishes exactly the new set', async () => {
    const out = copyOfOld();
    expect((await build(newCatalogue, out, { EVENTRY_TEST_CRASH_AT: 'apply-half' })).signal).toBe('SIGKILL');
    // The next command starts rolling forward and is killed halfway through the same journal.
    const recovering = await build(newCatalogue, out, { EVENTRY_TEST_CRASH_AT: 'apply-half' });
    expect(recovering.signal).toBe('SIGKILL');
    expect(existsSync(join(out, JOURNAL_FILE))).toBe(true);
    const again = await build(newCatalogue, out);
    expect(again.stdout).toMatch(/finished moving in the output of an interrupted build/);
    expect(again.stdout).toMatch(/nothing to do/);
    expect(visible(out)).toEqual(newSet);
    await expectConverges(out);
  }, 120_000);

  it('killed after random delays: always the old set or, after recovery, the new set', async () => {
    const timed = copyOfOld();
    const started = performance.now();
    await build(newCatalogue, timed);
    const duration = performance.now() - started;
    // A fixed seed keeps the delays the same from run to run; they spread over a whole build.
    let seed = 20240611;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 4; i++) {
      const out = copyOfOld();
      const killed = await build(newCatalogue, out, undefined, Math.round(duration * (0.2 + 0.8 * random())));
      const committed = existsSync(join(out, JOURNAL_FILE));
      // Without a journal the kill landed before the commit point (the old set) or after the apply
      // finished and the journal was deleted (the new set): a whole set either way, never a mix.
      if (killed.signal === 'SIGKILL' && !committed) expect([oldSet, newSet]).toContainEqual(visible(out));
      if (killed.status === 0) expect(visible(out)).toEqual(newSet);
      await expectConverges(out);
    }
  }, 300_000);
});

function isTransactionFile(path: string): boolean {
  return path.startsWith(`${STAGING_DIR}/`) || path.startsWith(JOURNAL_FILE) || path === LOCK_FILE;
}
