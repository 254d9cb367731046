import { cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packCatalogue } from '../../generators/execute/fast/transfer.js';
import { STAGING_DIR } from '../../generators/execute/write.js';
import { describeGroup, fixturePath, loadValid, REPO, tempDir } from '../helpers.js';
import { runCliInProcess } from './in-process.js';
import { comparable, eventryAsync, readTree } from './output-tree.js';

// The compiled CLI generates on worker threads (the in-process CLI runs from source, on one thread):
// `EVENTRY_BUILD_THREADS=2` makes it use two for any number of events.
const threaded = (catalogue: string, out: string, extra: string[] = []) =>
  eventryAsync(['build', '--catalogue', catalogue, '--out', out, ...extra], {
    env: { EVENTRY_BUILD_THREADS: '2' },
  });

describe('eventry build on worker threads', () => {
  const work = tempDir('eventry-build-threads-');

  for (const [name, source] of [
    ['fixture small', fixturePath('small')],
    ['the seed', join(REPO, 'catalogue')],
  ] as const) {
    it(`writes byte for byte what one thread writes: ${name}`, async () => {
      const catalogue = join(work, name, 'catalogue');
      cpSync(source, catalogue, { recursive: true });
      const single = await runCliInProcess([
        'build',
        '--no-cache',
        '--catalogue',
        catalogue,
        '--out',
        join(work, name, 'one'),
      ]);
      expect(single.stderr).toBe('');
      const pooled = await threaded(catalogue, join(work, name, 'two'), ['--no-cache']);
      expect(pooled.stderr).toBe('');
      expect(pooled.status).toBe(0);
      expect(comparable(readTree(join(work, name, 'two')))).toEqual(
        comparable(readTree(join(work, name, 'one'))),
      );
      // With the cache filled by the threads, a forced rebuild on one thread reads it back unchanged.
      const cached = await threaded(catalogue, join(work, name, 'three'));
      expect(cached.status).toBe(0);
      const again = await threaded(catalogue, join(work, name, 'three'), ['--force']);
      expect(again.stdout).toMatch(/0 files written/);
    }, 300_000);
  }

  it('one thread writes the documents, this one the rest; an edit copies their unchanged entries', async () => {
    const catalogue = join(work, 'one-thread', 'catalogue');
    const out = join(work, 'one-thread', 'packages');
    cpSync(join(REPO, 'catalogue'), catalogue, { recursive: true });
    const oneThread = (args: string[] = []) =>
      eventryAsync(['build', '--catalogue', catalogue, '--out', out, ...args], {
        env: { EVENTRY_BUILD_THREADS: '1' },
      });
    const reference = async (dir: string) => {
      const result = await runCliInProcess(['build', '--no-cache', '--catalogue', catalogue, '--out', dir]);
      expect(result.stderr).toBe('');
      return comparable(readTree(dir));
    };
    const first = await oneThread();
    expect(first.stderr).toBe('');
    expect(comparable(readTree(out))).toEqual(await reference(join(work, 'one-thread', 'ref-1')));
    const account = join(catalogue, 'groups/account.yaml');
    describeGroup(account, 'Edited.');
    const edit = await oneThread();
    expect(edit.stderr).toBe('');
    expect(edit.stdout).toMatch(/built 276 events/);
    expect(comparable(readTree(out))).toEqual(await reference(join(work, 'one-thread', 'ref-2')));
  }, 300_000);

  it('a file the file system refuses while threads generate fails with write-failed and replaces nothing', async () => {
    const catalogue = join(work, 'refused', 'catalogue');
    const out = join(work, 'refused', 'packages');
    cpSync(fixturePath('small'), catalogue, { recursive: true });
    expect((await threaded(catalogue, out)).status).toBe(0);
    rmSync(join(out, 'account/README.md'));
    mkdirSync(join(out, 'account/README.md/kept'), { recursive: true });
    const before = readTree(out);
    const account = join(catalogue, 'groups/account.yaml');
    describeGroup(account, 'Changed.');
    const failed = await threaded(catalogue, out);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/error write-failed: cannot write account\/README\.md \(EISDIR: /);
    expect(failed.stderr).toMatch(/nothing was written/);
    expect(readTree(out)).toEqual(before);
    expect(existsSync(join(out, STAGING_DIR))).toBe(false);
    expect(statSync(out).isDirectory()).toBe(true);
  }, 120_000);
});

describe('the build thread pool', () => {
  it('a group that fails on a worker thread rejects with the error one thread gives', async () => {
    const { startEmitPool } = await import('../../generators/execute/fast/emit-pool.js');
    const { groupPackageUnits } = await import('../../generators/execute/fast/group-units.js');
    const model = loadValid(fixturePath('small'));
    // A model the loader never gives (a group listing an event that does not exist) breaks the emitter.
    const broken = { ...model, groups: model.groups.map((group) => ({ ...group, events: ['missing-v1'] })) };
    const slug = broken.groups[0]!.slug;
    const alone = await Promise.resolve()
      .then(() =>
        groupPackageUnits(
          { ...broken, groups: [broken.groups[0]!] },
          { readExisting: () => undefined },
        )[0]!.files(),
      )
      .then(
        () => undefined,
        (error: Error) => error.message,
      );
    expect(alone).toBeDefined();
    const pool = startEmitPool(broken, 2, { outDir: tempDir() });
    try {
      await expect(pool.run({ kind: 'group', slug })).rejects.toThrow(alone!);
      // The other threads go on: a failure is the build's to report, not the pool's end.
      await expect(pool.run({ kind: 'emitter', name: 'catalogue-package' })).resolves.toHaveLength(2);
    } finally {
      await pool.close();
    }
  });

  it('threads started before the model run what they were sent once they are given it', async () => {
    const { openEmitPool } = await import('../../generators/execute/fast/emit-pool.js');
    const model = loadValid(fixturePath('small'));
    // Sized for a 1-byte model: the thread is replaced by one sized for the real one before it runs.
    const pool = openEmitPool(1, { outDir: tempDir(), modelBytes: 1 });
    try {
      const done = pool.run({ kind: 'emitter', name: 'catalogue-package' });
      pool.provide(packCatalogue(model));
      const files = await done;
      expect(files.map((file) => file.path)).toEqual(['catalogue/package.json', 'catalogue/README.md']);
      pool.grow(2);
      expect(pool.size).toBe(2);
      const slug = model.groups[0]!.slug;
      const [onThread, here] = await Promise.all([
        pool.run({ kind: 'group', slug }),
        (await import('../../generators/execute/fast/group-units.js'))
          .groupPackageUnits(model, { readExisting: () => undefined }, new Set([slug]))[0]!
          .files(),
      ]);
      expect(onThread).toEqual(here);
    } finally {
      await pool.close();
    }
  });
});
