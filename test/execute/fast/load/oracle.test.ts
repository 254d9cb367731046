import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FastLoad, ModelSnapshot, ParseCache } from '../../../../generators/execute/fast/load/index.js';
import {
  type CatalogueSourceFile,
  type LoadResult,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../../../../generators/load/index.js';
import { describeWithResource, fixtureCatalogues, REPO, tempDir } from '../../../helpers.js';
import { badCases, prepareBadCase } from '../../../load/bad-fixture.js';
import { mutate, mutationArbitrary } from '../../../load/mutate-catalogue.js';
import { findSeedCatalogue, loadSeedCatalogue } from '../../../load/seed/seed-catalogue.js';
import { expectSame } from '../../../load/yaml-paths.js';

// The reference loader (no accelerator: `yaml` parses, every check runs, nothing is reused) is the
// oracle: each accelerated path must give the same model, or the same problems, on every fixture, on
// the seed catalogue and on random edits of it.

const TOOL = 'oracle-test-tool';

/**
 * One accelerated path: `files` loaded after `base` was loaded through the same twins (the build before
 * an edit, OLD before NEW in a diff). `base` is `files` itself when there is nothing before.
 */
type AcceleratedLoad = (base: CatalogueSourceFile[], files: CatalogueSourceFile[]) => LoadResult;

/** A new cache folder for one case. */
const cacheDir = () => tempDir('eventry-oracle-');

const PATHS: [string, AcceleratedLoad][] = [
  ['the js-yaml fast path', (_, files) => loadCatalogueFromSources(files, { accelerator: new FastLoad() })],
  [
    'the parse memo (both loads through it)',
    (base, files) => {
      const accelerator = new FastLoad({ memo: true });
      loadCatalogueFromSources(base, { accelerator });
      return loadCatalogueFromSources(files, { accelerator });
    },
  ],
  [
    'the parse cache, warmed by a load of the base',
    (base, files) => {
      const dir = cacheDir();
      loadCatalogueFromSources(base, { accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }) });
      return loadCatalogueFromSources(files, {
        accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }),
      });
    },
  ],
  [
    'the model snapshot (incremental), kept by a load of the base',
    (base, files) => {
      const snapshot = new ModelSnapshot(cacheDir(), TOOL);
      loadCatalogueFromSources(base, { accelerator: new FastLoad({ snapshot }) });
      return loadCatalogueFromSources(files, { accelerator: new FastLoad({ snapshot }) });
    },
  ],
  [
    'the load beside the base (the other side of a diff)',
    (base, files) => {
      const accelerator = new FastLoad({ beside: true });
      loadCatalogueFromSources(base, { accelerator });
      return loadCatalogueFromSources(files, { accelerator });
    },
  ],
  [
    "the build's twins together (parse cache and snapshot)",
    (base, files) => {
      const dir = cacheDir();
      const build = () =>
        new FastLoad({ cache: new ParseCache(dir, TOOL), snapshot: new ModelSnapshot(dir, TOOL) });
      loadCatalogueFromSources(base, { accelerator: build() });
      return loadCatalogueFromSources(files, { accelerator: build() });
    },
  ],
  [
    "the diff's twins together (a read-only parse cache, the memo, beside)",
    (base, files) => {
      const dir = cacheDir();
      loadCatalogueFromSources(base, { accelerator: new FastLoad({ cache: new ParseCache(dir, TOOL) }) });
      const cache = new ParseCache(dir, TOOL, { readOnly: true });
      const accelerator = new FastLoad({ cache, memo: true, beside: true });
      loadCatalogueFromSources(base, { accelerator });
      return loadCatalogueFromSources(files, { accelerator });
    },
  ],
];

/** The accelerated load gives what the reference load gives: the same model, or the same problems. */
function expectOracle(load: AcceleratedLoad, base: CatalogueSourceFile[], files: CatalogueSourceFile[]) {
  const reference = loadCatalogueFromSources(files);
  const accelerated = load(base, files);
  expect(accelerated.ok).toBe(reference.ok);
  expectSame(accelerated, reference);
}

const fixtures = fixtureCatalogues().map((dir) => [relative(REPO, dir), dir] as const);

describe.each(PATHS)('%s gives what the reference loader gives', (_, load) => {
  it('finds fixture catalogues to compare', () => {
    expect(fixtures.length).toBeGreaterThan(50);
  });

  it.each(fixtures)('on %s', (_name, dir) => {
    const files = readCatalogueSources(dir);
    expectOracle(load, files, files);
  });

  it.each(badCases)('on the bad catalogue %s, problem for problem', (name) => {
    const { root, reader } = prepareBadCase(name);
    const files = readCatalogueSources(root, reader);
    const reference = loadCatalogueFromSources(files);
    expect(reference.ok).toBe(false);
    expectOracle(load, files, files);
  });
});

/**
 * A catalogue whose `shop.sale-v2` upgrades from `shop.sale-v1`, written in another file (or in the
 * same one, `together`), and a filler group so that one changed file is an edit the snapshot serves.
 */
function migrationCatalogue(v1Fields: string, together = false): CatalogueSourceFile[] {
  const v1 = `  shop.sale-v1:\n    fields:\n${v1Fields}`;
  const v2 = `  shop.sale-v2:
    fields:
      total: {type: number, required: true}
      label: {type: string}
    upgrade:
      from: shop.sale-v1
      steps:
        - rename: {from: note, to: label}
        - set: {field: total, cel: message.amount}
`;
  const group = (slug: string, events: string) => `group: {slug: ${slug}, title: T}\nevents:\n${events}`;
  const filler = (name: string) =>
    `  ${name}.happened-v1:\n    fields:\n      id: {type: string, required: true}\n`;
  return [
    { path: 'eventry.config.yaml', text: 'title: T\nversion: 1.0.0\nscope: "@t"\n' },
    { path: 'groups/a.yaml', text: group('a', together ? v1 + v2 : v1) },
    { path: 'groups/b.yaml', text: group('b', together ? filler('b') : v2) },
    { path: 'groups/c.yaml', text: group('c', filler('c')) },
    { path: 'groups/d.yaml', text: group('d', filler('d')) },
  ];
}

describe.each(PATHS)('%s checks a migration again when the version it reads changes', (_, load) => {
  const before = '      amount: {type: number, required: true}\n      note: {type: string}\n';
  it.each([
    ['in another file', false],
    ['in the same file', true],
  ])('%s', (_where, together) => {
    const base = migrationCatalogue(before, together);
    expect(loadCatalogueFromSources(base).ok).toBe(true);
    // `note` renamed in v1: v2's `rename.from` names a field v1 no longer has.
    const renamed = migrationCatalogue(before.replace('note:', 'remark:'), together);
    const reference = loadCatalogueFromSources(renamed);
    expect(reference.ok ? [] : reference.problems.map((problem) => problem.code)).toEqual([
      'migration-unknown-field',
    ]);
    expectOracle(load, base, renamed);
    // `amount` made a string: v2's `set: {cel}` gives a string to a number.
    const retyped = migrationCatalogue(
      before.replace('amount: {type: number', 'amount: {type: string'),
      together,
    );
    expectOracle(load, base, retyped);
  });
});

describeWithResource('the accelerated loads of the seed catalogue', findSeedCatalogue(), (seedPath) => {
  const real = readCatalogueSources(join(REPO, 'catalogue'));

  it('load the events of the seed document', () => {
    const reference = loadCatalogueFromSources(real);
    if (!reference.ok) throw new Error('the seed catalogue should load');
    const types = new Set(Object.values(reference.catalogue.events).map((event) => event.type));
    for (const event of Object.values(loadSeedCatalogue(seedPath).events))
      expect(types).toContain(event.type);
  });

  it.each(PATHS)('%s: the same model', (_, load) => {
    expectOracle(load, real, real);
  });

  /** The catalogue with one of its files changed by one or two random mutations. */
  const editedFiles = (() => {
    const paths = real.filter((file) => file.path !== 'allow-breaking.yaml');
    return fc.nat({ max: paths.length - 1 }).chain((index) =>
      fc
        .array(mutationArbitrary(paths[index]!.text.split('\n').length), { minLength: 1, maxLength: 2 })
        .map((mutations) => {
          const path = paths[index]!.path;
          return real.map((file) => (file.path === path ? mutations.reduce(mutate, file) : file));
        }),
    );
  })();

  it.each(PATHS)(
    '%s: the same model or problems after any random edit',
    (_, load) => {
      let broken = 0;
      fc.assert(
        fc.property(editedFiles, (files) => {
          if (!loadCatalogueFromSources(files).ok) broken++;
          expectOracle(load, real, files);
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 15), seed: 20_261_127 },
      );
      // Edits that break the catalogue were among them, so problem lists were compared too.
      expect(broken).toBeGreaterThan(0);
    },
    120_000,
  );
});
