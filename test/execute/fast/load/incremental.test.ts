import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffCatalogues } from '../../../../generators/diff/diff.js';
import {
  FastLoad,
  MODEL_SNAPSHOT_FILE,
  ModelSnapshot,
} from '../../../../generators/execute/fast/load/index.js';
import {
  type CatalogueSourceFile,
  type LoadResult,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../../../../generators/load/index.js';
import type { Catalogue } from '../../../../generators/model.js';
import { entryDigest, modelDigest } from '../../../../generators/model-digest.js';
import { REPO } from '../../../helpers.js';
import { mutate, mutationArbitrary } from '../../../load/mutate-catalogue.js';

/**
 * The incremental load (`load/incremental.ts`): after a load that kept its snapshot, a load of edited
 * files gives what a full load of them gives, whether it resolved only what the edit touched or went
 * to the full load, problems included.
 */

const real = readCatalogueSources(`${REPO}catalogue`);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventry-incremental-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function snapshot(tool = 'test-tool'): ModelSnapshot {
  return new ModelSnapshot(dir, tool);
}

/** The snapshot a full load of the seed keeps, as a first build leaves it. */
function keptByFullLoad(): ModelSnapshot {
  const kept = snapshot();
  expect(loadCatalogueFromSources(real, { accelerator: new FastLoad({ snapshot: kept }) }).ok).toBe(true);
  return kept;
}

/** `files` with `path`'s text changed by `edit` (which must change it). */
function edited(
  files: readonly CatalogueSourceFile[],
  path: string,
  edit: (text: string) => string,
): CatalogueSourceFile[] {
  return files.map((file) => {
    if (file.path !== path) return file;
    const text = edit(file.text);
    if (text === file.text) throw new Error(`the edit of ${path} changed nothing`);
    return { ...file, text };
  });
}

/** A load of `files` with `kept`, and whether the snapshot served it (the incremental path) or a full load did. */
function snapshotLoad(
  files: CatalogueSourceFile[],
  kept: ModelSnapshot,
): { result: LoadResult; served: boolean } {
  const accelerator = new FastLoad({ snapshot: kept });
  let served = false;
  const reuse = accelerator.reuse.bind(accelerator);
  accelerator.reuse = (catalogueFiles) => {
    const model = reuse(catalogueFiles);
    served = model !== undefined;
    return model;
  };
  return { result: loadCatalogueFromSources(files, { accelerator }), served };
}

/**
 * The paths below `value` that are not plain data: a property read through a getter (or set through a
 * setter), which would make whoever reads the model run the loader.
 */
function accessors(value: unknown, path = 'catalogue', seen = new Set<object>()): string[] {
  if (value === null || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  const found: string[] = [];
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (descriptor.get !== undefined || descriptor.set !== undefined) found.push(`${path}.${key}`);
    else found.push(...accessors(descriptor.value, `${path}.${key}`, seen));
  }
  return found;
}

/** Holds the two loads side by side: the same outcome, the same model object for object, the same digests. */
function expectSameLoad(incremental: LoadResult, full: LoadResult): void {
  expect(incremental.ok).toBe(full.ok);
  if (!incremental.ok || !full.ok) {
    expect(incremental).toEqual(full);
    return;
  }
  const a = incremental.catalogue;
  const b = full.catalogue;
  // Plain data, as the full load's: no event is made when read (issue 44, item 1).
  expect(accessors(a)).toEqual([]);
  // Digests first: reading an event below makes it, and then its digest comes from the object.
  for (const key of Object.keys(b.events))
    expect(entryDigest(a.events, key)).toBe(modelDigest(b.events[key]!));
  expect(Object.keys(a.events)).toEqual(Object.keys(b.events));
  expect(Object.keys(a.shapes)).toEqual(Object.keys(b.shapes));
  expect(Object.getPrototypeOf(a.events)).toBeNull();
  expect(Object.getPrototypeOf(a.shapes)).toBeNull();
  expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  expect(a).toStrictEqual(b);
}

function loadBoth(
  files: CatalogueSourceFile[],
  kept: ModelSnapshot,
): { incremental: LoadResult; full: LoadResult; served: boolean } {
  const { result, served } = snapshotLoad(files, kept);
  return { incremental: result, full: loadCatalogueFromSources(files), served };
}

describe('an edit loads from the snapshot what it did not touch', () => {
  it('a changed description is loaded from the snapshot, every event made', () => {
    const kept = keptByFullLoad();
    const files = edited(real, 'groups/auth.yaml', (text) =>
      text.replace(
        '  title: Authentication server\n',
        '  title: Authentication server\n  description: Edited.\n',
      ),
    );
    const { incremental, full, served } = loadBoth(files, kept);
    if (!incremental.ok) throw new Error('the edit should load');
    expect(served).toBe(true);
    const auth = incremental.catalogue.groups.find((group) => group.slug === 'auth')!;
    expect(auth.description).toBe('Edited.');
    expectSameLoad(incremental, full);
  });

  it('a changed shape resolves again every event that extends it, in whatever file', () => {
    const kept = keptByFullLoad();
    const files = edited(real, 'shapes.yaml', (text) =>
      text.replace(
        '      conversation_id: {type: integer, required: true}\n',
        '      conversation_id: {type: integer, required: true}\n      edited_field: {type: string, required: false}\n',
      ),
    );
    const { incremental, full, served } = loadBoth(files, kept);
    if (!incremental.ok || !full.ok) throw new Error('the edit should load');
    expect(served).toBe(true);
    const extending = Object.values(full.catalogue.events).filter(
      (event) => event.composition.kind === 'extends' && event.composition.of === 'ConvBase',
    );
    expect(extending.length).toBeGreaterThan(0);
    expect(incremental.catalogue.events[extending[0]!.key]!.fields.map((field) => field.name)).toContain(
      'edited_field',
    );
    expectSameLoad(incremental, full);
  });

  it('an event that builds on one in another file follows it through two edits in a row', () => {
    const kept = keptByFullLoad();
    // First edit: an auth event becomes the same as an account event (names unchanged: incremental).
    const first = edited(real, 'groups/auth.yaml', (text) =>
      text.replace(
        '  auth-server.access-token.issued-v1:\n    fields:\n      delegate: {type: string, required: true}\n      viewer: {type: string, required: true}\n      viewer_id: {type: integer, required: true}\n',
        '  auth-server.access-token.issued-v1:\n    same_as: account.created-v1\n',
      ),
    );
    const once = loadBoth(first, kept);
    expect(once.served).toBe(true);
    expectSameLoad(once.incremental, once.full);
    // Second edit, from the snapshot the first one kept: the account event gains a field.
    const second = edited(first, 'groups/account.yaml', (text) =>
      text.replace(
        /( {2}account\.created-v1:\n {4}fields:\n)/,
        '$1      edited_field: {type: string, required: false}\n',
      ),
    );
    const twice = loadBoth(second, kept);
    if (!twice.incremental.ok) throw new Error('the edit should load');
    const event = twice.incremental.catalogue.events['auth-server.access-token.issued-v1']!;
    expect(event.fields.find((field) => field.name === 'edited_field')?.inheritedFrom).toBe(
      'account.created-v1',
    );
    expectSameLoad(twice.incremental, twice.full);
  });
});

describe('what the incremental load leaves to the full load', () => {
  const cases: [string, (files: CatalogueSourceFile[]) => CatalogueSourceFile[]][] = [
    [
      'an event added',
      (files) =>
        edited(
          files,
          'groups/auth.yaml',
          (text) => `${text}  auth.added-v1:\n    fields:\n      a: {type: string}\n`,
        ),
    ],
    [
      'events in another order',
      (files) =>
        edited(files, 'groups/auth.yaml', (text) => {
          // Split before each event key (two spaces in, under `events:`).
          const [head, ...events] = text.split(/\n(?= {2}[\w.-]+-v\d+:)/);
          return [head, events[1], events[0], ...events.slice(2)].join('\n');
        }),
    ],
    ['a file removed', (files) => files.filter((file) => file.path !== 'groups/business.yaml')],
    [
      'a file added',
      (files) => [
        ...files,
        {
          path: 'groups/zz-added.yaml',
          text: 'group:\n  slug: zz-added\n  title: Added\nevents:\n  zz.added-v1:\n    fields:\n      a: {type: string}\n',
        },
      ],
    ],
    [
      'the settings changed',
      (files) => edited(files, 'eventry.config.yaml', (text) => `${text}description: Edited.\n`),
    ],
    [
      'an unknown shape (a problem)',
      (files) =>
        edited(files, 'groups/auth.yaml', (text) =>
          text.replace('delegate: {type: string', 'delegate: {type: Nope'),
        ),
    ],
    [
      'a composition loop (a problem)',
      (files) =>
        edited(files, 'shapes.yaml', (text) =>
          text.replace('  ConvBase:\n', '  ConvBase:\n    extends: ConvBase\n'),
        ),
    ],
  ];
  it.each(cases)('%s: the full load, with the same result', (_name, edit) => {
    const kept = keptByFullLoad();
    const files = edit(real);
    const { incremental, full, served } = loadBoth(files, kept);
    expect(served).toBe(false);
    expectSameLoad(incremental, full);
  });

  it('a damaged snapshot, or another toolkit’s, is not read', () => {
    const kept = keptByFullLoad();
    const files = edited(real, 'groups/auth.yaml', (text) => text.replace('Authentication server', 'Auth'));
    const other = snapshotLoad(files, snapshot('another-tool'));
    if (!other.result.ok) throw new Error('the edit should load');
    expect(other.served).toBe(false);
    const path = join(dir, MODEL_SNAPSHOT_FILE);
    const bytes = readFileSync(path);
    bytes[bytes.length - 10]! ^= 0xff;
    writeFileSync(path, bytes);
    const damaged = snapshotLoad(files, kept);
    if (!damaged.result.ok) throw new Error('the edit should load');
    expect(damaged.served).toBe(false);
    expectSameLoad(damaged.result, loadCatalogueFromSources(files));
    // The full load kept a sound snapshot again: the next edit is incremental.
    const again = snapshotLoad(
      edited(files, 'groups/auth.yaml', (text) => text.replace('title: Auth', 'title: Auth again')),
      kept,
    );
    expect(again.result.ok && again.served).toBe(true);
  });
});

/** The real catalogue with one of its YAML files changed by one or two random mutations. */
const editedFiles = (() => {
  const paths = real.filter((file) => file.path.endsWith('.yaml') && file.path !== 'allow-breaking.yaml');
  return fc.nat({ max: paths.length - 1 }).chain((index) =>
    fc
      .array(mutationArbitrary(paths[index]!.text.split('\n').length), { minLength: 1, maxLength: 2 })
      .map((mutations) => {
        const path = paths[index]!.path;
        return real.map((file) => (file.path === path ? mutations.reduce(mutate, file) : file));
      }),
  );
})();

describe('any edit of any file', () => {
  it('loads from the snapshot what a full load gives, problems included', () => {
    const kept = snapshot();
    let incrementalRuns = 0;
    fc.assert(
      fc.property(editedFiles, (files) => {
        // Each case starts from the snapshot of the real catalogue.
        rmSync(join(dir, MODEL_SNAPSHOT_FILE), { force: true });
        loadCatalogueFromSources(real, { accelerator: new FastLoad({ snapshot: kept }) });
        const { incremental, full, served } = loadBoth(files, kept);
        if (served) incrementalRuns++;
        expectSameLoad(incremental, full);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40), seed: 20_261_123 },
    );
    // The property held on edits the incremental path took, not only on those it left to the full load.
    expect(incrementalRuns).toBeGreaterThan(0);
  }, 300_000);
});

/** A load of `files` beside a full load of the real catalogue (`FastLoad`'s `beside`), and a full load of them. */
function loadBeside(files: CatalogueSourceFile[]): { beside: LoadResult; full: LoadResult; base: Catalogue } {
  const accelerator = new FastLoad({ beside: true });
  const first = loadCatalogueFromSources(real, { accelerator });
  if (!first.ok) throw new Error('the real catalogue should load');
  return {
    beside: loadCatalogueFromSources(files, { accelerator }),
    full: loadCatalogueFromSources(files),
    base: first.catalogue,
  };
}

/** The events and shapes a load beside `base` took from it as they were: the same objects. */
function sharedWith(base: Catalogue, catalogue: Catalogue): { events: number; shapes: number } {
  return {
    events: Object.keys(catalogue.events).filter((key) => catalogue.events[key] === base.events[key]).length,
    shapes: Object.keys(catalogue.shapes).filter((name) => catalogue.shapes[name] === base.shapes[name])
      .length,
  };
}

/** `loadBeside` of the real catalogue with `from` replaced by `to` in shapes.yaml; both loads must succeed. */
function loadShapesEditedBeside(
  from: string,
  to: string,
): { beside: Catalogue; full: Catalogue; base: Catalogue } {
  const { beside, full, base } = loadBeside(edited(real, 'shapes.yaml', (text) => text.replace(from, to)));
  if (!beside.ok || !full.ok) throw new Error('the edit should load');
  return { beside: beside.catalogue, full: full.catalogue, base };
}

describe('a load beside a catalogue a few files apart (the other side of a diff)', () => {
  it('shares every object an edit of a description leaves alone, and makes the edited group again', () => {
    const files = edited(real, 'groups/auth.yaml', (text) =>
      text.replace(
        '  title: Authentication server\n',
        '  title: Authentication server\n  description: Edited.\n',
      ),
    );
    const { beside, full, base } = loadBeside(files);
    if (!beside.ok) throw new Error('the edit should load');
    const auth = beside.catalogue.groups.find((group) => group.slug === 'auth')!;
    expect(auth.description).toBe('Edited.');
    const total = Object.keys(beside.catalogue.events).length;
    expect(sharedWith(base, beside.catalogue)).toEqual({
      events: total - auth.events.length,
      shapes: Object.keys(base.shapes).length,
    });
    expectSameLoad(beside, full);
  });

  it('a changed shape is made again with every event that extends it; other events stay shared', () => {
    const { beside, full, base } = loadShapesEditedBeside(
      '      conversation_id: {type: integer, required: true}\n',
      '      conversation_id: {type: integer, required: true}\n      edited_field: {type: string, required: false}\n',
    );
    const extending = Object.keys(full.events).filter((key) => {
      const composition = full.events[key]!.composition;
      return composition.kind === 'extends' && composition.of === 'ConvBase';
    });
    expect(extending.length).toBeGreaterThan(0);
    for (const key of extending) expect(beside.events[key]).not.toBe(base.events[key]);
    expect(beside.shapes.ConvBase).not.toBe(base.shapes.ConvBase);
    expect(sharedWith(base, beside).events).toBeGreaterThan(0);
    expectSameLoad({ ok: true, catalogue: beside }, { ok: true, catalogue: full });
  });

  it('a field removed from a shape is a change of the events that have a field of it, though their objects are shared', () => {
    const { beside, full, base } = loadShapesEditedBeside(
      '      number: {type: string, required: true}\n      id: {type: string}\n',
      '      number: {type: string, required: true}\n',
    );
    // An event that has a field of the shape names it: nothing it builds on changed, so it is the
    // base's object, and the diff still finds the field gone from it (through the shape).
    const changes = diffCatalogues(base, beside);
    const removedFromShared = changes.filter(
      (change) =>
        change.kind === 'field-removed' && beside.events[change.event] === base.events[change.event],
    );
    expect(removedFromShared.length).toBeGreaterThan(0);
    expect(changes).toEqual(diffCatalogues(base, full));
  });

  it('any edit of any file loads what a full load gives, problems included, and diffs as it does', () => {
    let sharing = 0;
    fc.assert(
      fc.property(editedFiles, (files) => {
        const { beside, full, base } = loadBeside(files);
        if (beside.ok && sharedWith(base, beside.catalogue).events > 0) sharing++;
        expectSameLoad(beside, full);
        // The diff skips what the two sides share: it finds what it finds between two full loads.
        if (beside.ok && full.ok)
          expect(diffCatalogues(base, beside.catalogue)).toEqual(diffCatalogues(base, full.catalogue));
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40), seed: 20_261_124 },
    );
    // The property held on loads that shared objects, not only on those left to the full load.
    expect(sharing).toBeGreaterThan(0);
  }, 300_000);
});
