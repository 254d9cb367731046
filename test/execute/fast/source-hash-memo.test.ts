import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FastContext as EmitContext } from '../../../generators/execute/fast/emit-context.js';
import { groupPackageUnits } from '../../../generators/execute/fast/group-units.js';
import type { Catalogue } from '../../../generators/model.js';
import { fixturePath, keptOnlyCache, loadValid, REPO } from '../../helpers.js';

// Each group's source hash (published in its package.json) comes from the last build's when the
// group's events and the shapes are as they were: at 10,000 events, computing them all was a fifth of
// an edit's time. It must always be the hash a build without the memo computes.

const manifests = (model: Catalogue, context: EmitContext) =>
  groupPackageUnits(model, context).map((unit) => unit.packageJson().contents);
const plain: EmitContext = { readExisting: () => undefined };

function editEvent(model: Catalogue, key: string): Catalogue {
  const event = model.events[key]!;
  return { ...model, events: { ...model.events, [key]: { ...event, title: `${event.title} (edited)` } } };
}

function editShape(model: Catalogue, name: string): Catalogue {
  const shape = model.shapes[name]!;
  const fields = shape.fields.map((field, i) => (i === 0 ? { ...field, description: 'Edited.' } : field));
  return { ...model, shapes: { ...model.shapes, [name]: { ...shape, fields } } };
}

describe('group source hashes from the last build', () => {
  const model = loadValid(join(REPO, 'catalogue'));
  const usedShape = Object.keys(model.shapes).find((name) =>
    Object.values(model.events).some((event) =>
      event.fields.some((field) => field.type.kind === 'shape' && field.type.name === name),
    ),
  )!;

  it('a first, a repeated and edited builds give the manifests a build without memo gives', () => {
    const { cache } = keptOnlyCache();
    const context = { ...plain, cache };
    for (const version of [
      model,
      model,
      editEvent(model, Object.keys(model.events)[3]!),
      editShape(model, usedShape),
      model,
    ]) {
      expect(manifests(version, context)).toEqual(manifests(version, plain));
    }
    expect(manifests(editShape(model, usedShape), plain)).not.toEqual(manifests(model, plain));
  });

  it('a kept hash is used while its inputs are unchanged, and only then', () => {
    const { cache, kept } = keptOnlyCache();
    const context = { ...plain, cache };
    manifests(model, context);
    const memo = kept.get('group-source-hashes') as Map<string, { sourceHash: string }>;
    const slug = model.groups[0]!.slug;
    memo.get(slug)!.sourceHash = 'kept-hash';
    expect(manifests(model, context)[0]).toContain('"sourceHash": "kept-hash"');
    // Kept again as it was used; an edit of one of the group's events computes it afresh.
    (kept.get('group-source-hashes') as Map<string, { sourceHash: string }>).get(slug)!.sourceHash =
      'kept-hash';
    const edited = editEvent(model, model.groups[0]!.events[0]!);
    expect(manifests(edited, context)[0]).not.toContain('kept-hash');
    expect(manifests(edited, context)).toEqual(manifests(edited, plain));
  });

  it('a memo of another shape is ignored, and the units of some groups only keep nothing', () => {
    const { cache, kept } = keptOnlyCache();
    const context = { ...plain, cache };
    kept.set('group-source-hashes', new Map([[model.groups[0]!.slug, { inputs: 1, sourceHash: 2 }]]));
    expect(manifests(model, context)).toEqual(manifests(model, plain));
    kept.clear();
    const [unit] = groupPackageUnits(model, context, new Set([model.groups[1]!.slug]));
    expect(unit!.slug).toBe(model.groups[1]!.slug);
    expect(kept.has('group-source-hashes')).toBe(false);
  });
});

describe('a group whose migrations read a version in another group', () => {
  // agreement.updated-v2 upgrades from v1; v1 moved to the billing group for this test.
  const fixture = loadValid(fixturePath('migrations'));
  const v1 = 'agreement.updated-v1';
  const model: Catalogue = {
    ...fixture,
    groups: fixture.groups.map((group) =>
      group.slug === 'agreements'
        ? { ...group, events: group.events.filter((key) => key !== v1) }
        : group.slug === 'billing'
          ? { ...group, events: [...group.events, v1] }
          : group,
    ),
    events: { ...fixture.events, [v1]: { ...fixture.events[v1]!, group: 'billing' } },
  };

  it('computes its hash afresh when that version changes', () => {
    const { cache, kept } = keptOnlyCache();
    const context = { ...plain, cache };
    manifests(model, context);
    const at = model.groups.findIndex((group) => group.slug === 'agreements');
    const memo = kept.get('group-source-hashes') as Map<string, { sourceHash: string }>;
    memo.get('agreements')!.sourceHash = 'kept-hash';
    expect(manifests(model, context)[at]).toContain('kept-hash');
    (kept.get('group-source-hashes') as Map<string, { sourceHash: string }>).get('agreements')!.sourceHash =
      'kept-hash';
    expect(manifests(editEvent(model, v1), context)[at]).not.toContain('kept-hash');
  });
});

describe('the kept source hashes, read by a thread that generates group after group', () => {
  it('are recalled once, and again after the next keep', () => {
    const model = loadValid(join(REPO, 'catalogue'));
    const { cache: backing } = keptOnlyCache();
    let recalls = 0;
    const cache = {
      ...backing,
      recall: (unit: string) => {
        recalls++;
        return backing.recall!(unit);
      },
    };
    const context = { ...plain, cache };
    manifests(model, context);
    expect(recalls).toBe(1);
    // One unit at a time, as a pool thread makes them: the memo the last keep left is read once.
    const slugs = model.groups.map((group) => group.slug);
    const one = slugs.map((slug) => groupPackageUnits(model, context, new Set([slug]))[0]!.packageJson());
    expect(recalls).toBe(2);
    expect(one.map((file) => file.contents)).toEqual(manifests(model, plain));
    // A whole build on the same cache still reads the memo; the one after its keep reads the cache.
    manifests(model, context);
    expect(recalls).toBe(2);
    manifests(model, context);
    expect(recalls).toBe(3);
  });
});
