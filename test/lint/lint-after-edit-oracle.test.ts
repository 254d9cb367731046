import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FastLoad, ModelSnapshot, ParseCache } from '../../generators/execute/fast/load/index.js';
import { lintForGate, lintSummaryLine } from '../../generators/lint/gate.js';
import {
  type CatalogueSourceFile,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { fixtureCatalogues, REPO, tempDir } from '../helpers.js';
import { mutate, mutationArbitrary } from '../load/mutate-catalogue.js';

// `eventry build` lints the model its incremental load made: after an edit, the events of unchanged
// files are made again in one pass from their files (`execute/fast/load/incremental.ts`). The
// plain path, a whole load with no accelerator, is the oracle: the summary line and the gate's report
// must be the same, on the fixtures, the repository's catalogue and random edits of it.

const TOOL = 'lint-oracle-test-tool';

/** The model the build's loader makes of `files` after a build of `base` (the same folder, an edit later). */
function loadAsTheBuild(base: CatalogueSourceFile[], files: CatalogueSourceFile[]): Catalogue | undefined {
  const dir = tempDir('eventry-lint-oracle-');
  const accelerator = () =>
    new FastLoad({ cache: new ParseCache(dir, TOOL), snapshot: new ModelSnapshot(dir, TOOL) });
  loadCatalogueFromSources(base, { accelerator: accelerator() });
  const loaded = loadCatalogueFromSources(files, { accelerator: accelerator() });
  return loaded.ok ? loaded.catalogue : undefined;
}

/** How many events of `catalogue` are still to be made when first read. */
function unread(catalogue: Catalogue): number {
  return Object.keys(catalogue.events).filter(
    (key) => Object.getOwnPropertyDescriptor(catalogue.events, key)?.get !== undefined,
  ).length;
}

/** What the lint says of `files` (in `dir`): the build's line, the gate's text and GitHub reports. */
function lintOutputs(catalogue: Catalogue, dir: string, files: CatalogueSourceFile[]) {
  return {
    summary: lintSummaryLine(catalogue, dir, files),
    text: lintForGate(catalogue, dir, 'catalogue', 'text', files).output,
    github: lintForGate(catalogue, dir, 'catalogue', 'github', files).output,
  };
}

/** The lint of the build's model of `files` says what the lint of the plain load says; false if `files` do not load. */
function expectSameLint(dir: string, base: CatalogueSourceFile[], files: CatalogueSourceFile[]): boolean {
  const plain = loadCatalogueFromSources(files);
  const built = loadAsTheBuild(base, files);
  expect(built !== undefined).toBe(plain.ok);
  if (!plain.ok || !built) return false;
  expect(lintOutputs(built, dir, files)).toEqual(lintOutputs(plain.catalogue, dir, files));
  return true;
}

const fixtures = fixtureCatalogues().map((dir) => [relative(REPO, dir), dir] as const);

describe("the lint of the build's incrementally loaded model", () => {
  it('reads a plain model: no event is left to be made when read (issue 44)', () => {
    const files = readCatalogueSources(join(REPO, 'catalogue'));
    const built = loadAsTheBuild(files, files)!;
    expect(Object.keys(built.events).length).toBeGreaterThan(100);
    expect(unread(built)).toBe(0);
  });

  it('finds the lint fixtures among the catalogues to compare', () => {
    expect(fixtures.filter(([name]) => name.startsWith('test/fixtures/lint/')).length).toBeGreaterThan(30);
  });

  it.each(fixtures)('says what the plain lint says on %s', (_name, dir) => {
    const files = readCatalogueSources(dir);
    // A fixture that does not load (a consumer naming a missing field) does not load for the build either.
    expectSameLint(dir, files, files);
  });

  const real = readCatalogueSources(join(REPO, 'catalogue'));

  it("says what the plain lint says on the repository's catalogue", () => {
    expect(expectSameLint(join(REPO, 'catalogue'), real, real)).toBe(true);
  });

  /** `real` with `path`'s text changed by `edit` (which must change it). */
  const editedAt = (path: string, edit: (text: string) => string) =>
    real.map((file) => {
      if (file.path !== path) return file;
      const text = edit(file.text);
      expect(text).not.toBe(file.text);
      return { ...file, text };
    });

  it.each([
    [
      "a group's description added (the bench's edit)",
      'groups/account.yaml',
      (text: string) => text.replace('title: ', 'description: Edited.\n  title: '),
    ],
    [
      'a field given another type (a consistency finding more)',
      'groups/account.yaml',
      (text: string) => text.replace('account_number: {type: string', 'account_number: {type: integer'),
    ],
    [
      'a field renamed out of the catalogue case',
      'groups/account.yaml',
      (text: string) => text.replace('previous_status:', 'previousStatus:'),
    ],
    [
      'a suppression comment added',
      'groups/account.yaml',
      (text: string) =>
        text.replace(
          /^(\s*)account_number:/m,
          '$1# eventry-lint-disable-next-line field-name-case -- kept\n$1account_number:',
        ),
    ],
  ] as const)('says what the plain lint says after %s', (_name, path, edit) => {
    expect(expectSameLint(join(REPO, 'catalogue'), real, editedAt(path, edit))).toBe(true);
  });

  it('says what the plain lint says after any random edit of one file', () => {
    const paths = real.filter((file) => file.path !== 'allow-breaking.yaml');
    const edited = fc.nat({ max: paths.length - 1 }).chain((index) =>
      fc
        .array(mutationArbitrary(paths[index]!.text.split('\n').length), { minLength: 1, maxLength: 2 })
        .map((mutations) => {
          const path = paths[index]!.path;
          return real.map((file) => (file.path === path ? mutations.reduce(mutate, file) : file));
        }),
    );
    let linted = 0;
    fc.assert(
      fc.property(edited, (files) => {
        if (expectSameLint(join(REPO, 'catalogue'), real, files)) linted++;
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40), seed: 20_261_127 },
    );
    // Some edits keep the catalogue loading, so lints were compared, not only failed loads.
    expect(linted).toBeGreaterThan(2);
  }, 120_000);
});
