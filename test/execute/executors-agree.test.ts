import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BuildResult, Executor } from '../../generators/execute/executor.js';
import { FAST_TWINS, fastExecutor } from '../../generators/execute/fast/index.js';
import { referenceExecutor } from '../../generators/execute/reference.js';
import { loadCatalogue, readCatalogueSources } from '../../generators/load/index.js';
import { describeGroup, REPO, tempDir } from '../helpers.js';

// The reference executor is the oracle: whatever the fast one remembers, caches or runs on threads,
// the output tree it leaves must be the reference's, byte for byte. Its build state is its own
// memory, not output, and is left out of the comparison.

/** Every file of an output folder but the fast executor's state, path to contents (base64). */
function outputTree(dir: string): Record<string, string> {
  const tree: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/');
    if (path.startsWith('.eventry-build-state')) continue;
    tree[path] = readFileSync(join(dir, path)).toString('base64');
  }
  return Object.fromEntries(Object.entries(tree).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Builds `catalogueDir` into `outDir` with `executor`, requiring it to build (or find nothing to do). */
async function build(executor: Executor, catalogueDir: string, outDir: string): Promise<BuildResult> {
  const result = await executor.build({ catalogueDir, outDir });
  expect(['built', 'up-to-date'], `${executor.name}: ${JSON.stringify(result).slice(0, 500)}`).toContain(
    result.kind,
  );
  return result;
}

/** A copy of `source` in a folder of its own (the fast executor keeps its cache beside the project). */
function copyCatalogue(work: string, name: string, source: string): string {
  const catalogue = join(work, name, 'catalogue');
  cpSync(source, catalogue, { recursive: true });
  return catalogue;
}

/** The fixtures' catalogue folders that load (the others are there to fail). */
function loadingFixtures(): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (readdirSync(path).includes('eventry.config.yaml')) found.push(path);
      else if (depth < 3) walk(path, depth + 1);
    }
  };
  walk(join(REPO, 'test/fixtures'), 0);
  return found.filter((dir) => loadCatalogue(dir).ok).sort();
}

const fast = fastExecutor({ threads: 0 });
const threaded = fastExecutor({ threads: 2, anySize: true });
const uncached = fastExecutor({ threads: 0, cache: false });

describe('the fast executor writes what the reference executor writes', () => {
  const work = tempDir('eventry-executors-');
  const fixtures = loadingFixtures();

  it('finds the fixtures that load', () => {
    expect(fixtures.length).toBeGreaterThan(20);
    expect(fixtures).toContain(join(REPO, 'test/fixtures/small/catalogue'));
  });

  it('on every fixture that loads: cold, then warm (a second build over its own output)', async () => {
    // An `after` of a pair is built by the edit test below.
    for (const [i, fixture] of fixtures.filter((dir) => !dir.endsWith('/after')).entries()) {
      const catalogue = copyCatalogue(work, `fixture-${i}`, fixture);
      const expected = join(work, `fixture-${i}`, 'reference');
      const out = join(work, `fixture-${i}`, 'fast');
      const what = relative(REPO, fixture);
      // A fixture that loads but that the build refuses (a rule no test data keeps): both refuse it alike.
      const reference = await referenceExecutor.build({ catalogueDir: catalogue, outDir: expected });
      if (reference.kind === 'emitter-failed') {
        const refused = await fast.build({ catalogueDir: catalogue, outDir: out });
        expect(refused.kind, `${what}, refused`).toBe('emitter-failed');
        expect(String((refused as { error?: unknown }).error), what).toBe(String(reference.error));
        continue;
      }
      expect(['built', 'up-to-date'], `${what}: ${JSON.stringify(reference).slice(0, 500)}`).toContain(
        reference.kind,
      );
      await build(fast, catalogue, out);
      expect(outputTree(out), `${what}, cold`).toEqual(outputTree(expected));
      const warm = await build(fast, catalogue, out);
      expect(warm.kind, `${what}, warm`).toBe('up-to-date');
      expect(outputTree(out), `${what}, warm`).toEqual(outputTree(expected));
    }
  }, 600_000);

  it('after an edit: each `before` fixture built, then its `after` copied over it', async () => {
    const pairs = fixtures.filter(
      (dir) => dir.endsWith('/before') && fixtures.includes(join(dirname(dir), 'after')),
    );
    expect(pairs.length).toBeGreaterThan(5);
    for (const [i, before] of pairs.entries()) {
      const after = join(dirname(before), 'after');
      const catalogue = copyCatalogue(work, `pair-${i}`, before);
      const out = join(work, `pair-${i}`, 'fast');
      await build(fast, catalogue, out);
      rmSync(catalogue, { recursive: true });
      cpSync(after, catalogue, { recursive: true });
      const expected = join(work, `pair-${i}`, 'reference');
      await build(referenceExecutor, catalogue, expected);
      await build(fast, catalogue, out);
      expect(outputTree(out), relative(REPO, after)).toEqual(outputTree(expected));
    }
  }, 600_000);

  for (const [name, source] of [
    ['fixture small', join(REPO, 'test/fixtures/small/catalogue')],
    // The repository's catalogue is the seed document's, as `eventry import` wrote it.
    ['the seed catalogue', join(REPO, 'catalogue')],
  ] as const) {
    it(`on ${name}: cold, warm, after an edit of one group, with threads and without a cache`, async () => {
      const catalogue = copyCatalogue(work, name, source);
      const reference = async (tag: string) => {
        const out = join(work, name, `reference-${tag}`);
        await build(referenceExecutor, catalogue, out);
        return outputTree(out);
      };
      const expected = await reference('cold');
      const out = join(work, name, 'fast');
      await build(fast, catalogue, out);
      expect(outputTree(out), 'cold').toEqual(expected);
      expect((await build(fast, catalogue, out)).kind).toBe('up-to-date');
      expect(outputTree(out), 'warm').toEqual(expected);
      const forced = await fast.build({ catalogueDir: catalogue, outDir: out, force: true });
      expect(forced.kind).toBe('built');
      expect(outputTree(out), 'forced, from the caches').toEqual(expected);

      // An edit of one group: its title, and a field added to one of its events.
      const groups = join(catalogue, 'groups');
      const file = join(groups, readdirSync(groups).sort()[0]!);
      const text = readFileSync(file, 'utf8');
      const edited = text
        .replace(/^ {2}title: (.+)$/m, '  title: $1 (edited)')
        .replace(/^( +)(\w+): \{type: string, required: true\}$/m, '$&\n$1edited_field: {type: string}');
      expect(edited).toContain('(edited)');
      expect(edited).toContain('edited_field');
      expect(edited).not.toBe(text);
      writeFileSync(file, edited);
      const afterEdit = await reference('edit');
      expect(afterEdit).not.toEqual(expected);
      const built = await build(fast, catalogue, out);
      expect(built.kind).toBe('built');
      expect(outputTree(out), 'after an edit of one group').toEqual(afterEdit);

      // Threads, on a cold output and on the edited one edited back.
      const pooled = join(work, name, 'threads');
      await build(threaded, catalogue, pooled);
      expect(outputTree(pooled), 'with threads').toEqual(afterEdit);
      writeFileSync(file, text);
      await build(threaded, catalogue, pooled);
      expect(outputTree(pooled), 'with threads, after an edit').toEqual(expected);

      const plain = join(work, name, 'uncached');
      mkdirSync(plain);
      await build(uncached, catalogue, plain);
      expect(outputTree(plain), 'without a cache').toEqual(expected);
    }, 600_000);
  }

  // Each twin turned off alone (the `twins` bench's variants), threads on whatever the size: the
  // output must still be the reference's, cold and after an edit, and a rebuild must find nothing to do.
  for (const twin of FAST_TWINS) {
    it(`with the ${twin} twin off: cold, after an edit of one group, then nothing to do`, async () => {
      const name = `off-${twin}`;
      const catalogue = copyCatalogue(work, name, join(REPO, 'test/fixtures/small/catalogue'));
      const executor = fastExecutor({ threads: 2, anySize: true, off: [twin] });
      const reference = async (tag: string) => {
        const out = join(work, name, `reference-${tag}`);
        await build(referenceExecutor, catalogue, out);
        return outputTree(out);
      };
      const out = join(work, name, 'fast');
      await build(executor, catalogue, out);
      expect(outputTree(out), 'cold').toEqual(await reference('cold'));
      const groups = join(catalogue, 'groups');
      const file = join(groups, readdirSync(groups).sort()[0]!);
      const text = readFileSync(file, 'utf8');
      const edited = text.replace(/^ {2}title: (.+)$/m, '  title: $1 (edited)');
      expect(edited).not.toBe(text);
      writeFileSync(file, edited);
      expect((await build(executor, catalogue, out)).kind).toBe('built');
      expect(outputTree(out), 'after an edit').toEqual(await reference('edit'));
      expect((await build(executor, catalogue, out)).kind).toBe('up-to-date');
    }, 120_000);
  }
});

describe('both executors hand on the files they built from (the lint summary reads them, not the disk)', () => {
  it.each([
    ['reference', referenceExecutor],
    ['fast', fast],
  ] as const)('the %s executor, on a first build and after an edit of one group', async (_name, executor) => {
    const work = tempDir('eventry-executor-sources-');
    const catalogue = copyCatalogue(work, 'small', join(REPO, 'test/fixtures/small/catalogue'));
    const out = join(work, 'small', 'out');
    const first = await build(executor, catalogue, out);
    expect(first.kind === 'built' ? first.sources : undefined).toEqual(readCatalogueSources(catalogue));
    const groups = join(catalogue, 'groups');
    describeGroup(join(groups, readdirSync(groups).sort()[0]!), 'Edited for the sources test.');
    const edited = await build(executor, catalogue, out);
    const sources = edited.kind === 'built' ? edited.sources : undefined;
    expect(sources).toEqual(readCatalogueSources(catalogue));
    expect(sources?.some((file) => file.text.includes('Edited for the sources test.'))).toBe(true);
  });
});
