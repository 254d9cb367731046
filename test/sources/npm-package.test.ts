import { describe, expect, it } from 'vitest';
import { diffCatalogues } from '../../generators/diff/diff.js';
import { type Catalogue, eventDescription, readEventNotices } from '../../generators/model.js';
import { shippedEventSchema } from '../../generators/schema/json-schema.js';
import { alignSources, restrictToGroups } from '../../generators/sources/index.js';
import { readPackageCatalogue } from '../../generators/sources/npm-package.js';
import { loadValid, REPO } from '../helpers.js';

const real = loadValid(`${REPO}/catalogue`);

/** The files a group package ships that the reader needs: package.json and one schema per event. */
function packageFiles(model: Catalogue, slug: string): Map<string, string> {
  const group = model.groups.find((g) => g.slug === slug)!;
  const files = new Map<string, string>();
  files.set(
    'package.json',
    JSON.stringify({
      name: `${model.config.scope}/${slug}`,
      version: '1.2.0',
      eventry: { sourceHash: 'f00d' },
    }),
  );
  for (const key of group.events)
    files.set(`schemas/${key}.json`, JSON.stringify(shippedEventSchema(model, key)));
  return files;
}

describe('readPackageCatalogue', () => {
  it.each(real.groups.map((group) => [group.slug]))(
    'reads group %s back into a model the diff finds identical to the catalogue',
    (slug) => {
      const result = readPackageCatalogue(packageFiles(real, slug), `npm:@platform-events/${slug}@1.2.0`);
      if (!result.ok) throw new Error(JSON.stringify(result.problems, null, 2));
      expect(Object.keys(result.catalogue.events).sort()).toEqual(
        [...real.groups.find((g) => g.slug === slug)!.events].sort(),
      );
      expect(diffCatalogues(restrictToGroups(real, [slug]), result.catalogue)).toEqual([]);
    },
  );

  it('points locations at the package files', () => {
    const result = readPackageCatalogue(packageFiles(real, 'account'), 'npm:@platform-events/account@1.2.0');
    if (!result.ok) throw new Error('expected the package to load');
    expect(result.catalogue.events['account.created-v1']!.source).toEqual({
      file: 'npm:@platform-events/account@1.2.0/schemas/account.created-v1.json',
      line: 1,
      column: 1,
    });
    expect(result.catalogue.config.scope).toBe('@platform-events');
    expect(result.catalogue.hash).toBe('f00d');
  });

  it('says so when a package ships no schemas', () => {
    const files = new Map([
      ['package.json', JSON.stringify({ name: '@platform-events/account', version: '1.0.0' })],
    ]);
    const result = readPackageCatalogue(files, 'npm:@platform-events/account@1.0.0');
    expect(result).toMatchObject({
      ok: false,
      problems: [
        {
          file: 'npm:@platform-events/account@1.0.0/package.json',
          message: expect.stringContaining('ships no `schemas/<event key>.json`'),
        },
      ],
    });
  });
});

describe('alignSources', () => {
  it('compares only the groups a package covers, so the rest of the catalogue is not reported as added', () => {
    const pkg = readPackageCatalogue(packageFiles(real, 'billing'), 'npm:@platform-events/billing@1.2.0');
    if (!pkg.ok) throw new Error('expected the package to load');
    const [before, after] = alignSources(
      { catalogue: pkg.catalogue, groups: ['billing'] },
      { catalogue: real },
    );
    expect(diffCatalogues(before.catalogue, after.catalogue)).toEqual([]);
    expect(
      diffCatalogues(pkg.catalogue, real).filter((c) => c.kind === 'event-added').length,
    ).toBeGreaterThan(100);
  });
});

describe('readEventNotices (shipped schemas carry no x- keywords)', () => {
  it.each([
    [{ partial: 'Only some.\n\nMore later.' }],
    [{ deprecated: { since: '1.2.0' } }],
    [{ deprecated: { since: '2024-01-31', replacedBy: 'a.b-v2', note: 'Moved. See docs.' } }],
    [{ partial: 'Some.', deprecated: { since: 'v3', note: 'Gone.' } }],
  ] as const)('reads back the notices of %j from the description alone', (notices) => {
    const event = { type: 'a.b', version: 'v1', description: 'Authored.\n\nPartial: not me', ...notices };
    const read = readEventNotices(eventDescription(event), {
      partial: 'partial' in notices,
      deprecated: 'deprecated' in notices,
    });
    expect(read).toEqual(notices);
  });
});
