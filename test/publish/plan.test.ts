import { describe, expect, it } from 'vitest';
import type { NpmRegistryPackage, PublishedVersion } from '../../generators/publish/npm-registry-client.js';
import type { PackedPackage } from '../../generators/publish/pack.js';
import {
  describeConflict,
  distTagFor,
  needsContentCheck,
  type PlanEntry,
  planPackage,
  type RegistryState,
} from '../../generators/publish/plan.js';

const local: PackedPackage = {
  dir: '/tmp/packages/account',
  name: '@platform-events/account',
  version: '1.1.0',
  integrity: 'sha512-LOCAL',
  shasum: 'local',
  size: 1000,
  unpackedSize: 4000,
  files: ['index.d.ts', 'index.js', 'package.json'],
  sourceHash: 'aaaaaaaaaaaaaaaa',
};

const registryPackage = (versions: string[], latest?: string): NpmRegistryPackage => ({
  name: local.name,
  versions,
  distTags: latest ? { latest } : {},
});

const published = (integrity: string, sourceHash = 'bbbbbbbbbbbbbbbb'): PublishedVersion => ({
  name: local.name,
  version: local.version,
  integrity,
  shasum: 'x',
  tarball: 'http://registry/account-1.1.0.tgz',
  sourceHash,
});

const cases: [string, { given: RegistryState; want: { action: PlanEntry['action']; tag?: string } }][] = [
  ['never published: publish as latest', { given: {}, want: { action: 'publish', tag: 'latest' } }],
  [
    'older versions only: publish as latest',
    { given: { package: registryPackage(['1.0.0'], '1.0.0') }, want: { action: 'publish', tag: 'latest' } },
  ],
  [
    'a higher version is latest: publish under latest-<major>, never move latest back',
    {
      given: { package: registryPackage(['1.0.0', '2.0.0'], '2.0.0') },
      want: { action: 'publish', tag: 'latest-1' },
    },
  ],
  [
    'same version, same tarball: up to date',
    {
      given: { package: registryPackage(['1.1.0'], '1.1.0'), published: published('sha512-LOCAL') },
      want: { action: 'up-to-date' },
    },
  ],
  [
    'same version, other bytes but the same files (another npm compressed them): up to date',
    {
      given: {
        package: registryPackage(['1.1.0'], '1.1.0'),
        published: published('sha512-OTHER'),
        differingFiles: [],
      },
      want: { action: 'up-to-date' },
    },
  ],
  [
    'same version, different files: conflict',
    {
      given: {
        package: registryPackage(['1.1.0'], '1.1.0'),
        published: published('sha512-OTHER'),
        differingFiles: ['index.d.ts'],
      },
      want: { action: 'conflict' },
    },
  ],
  [
    'same version, other bytes, contents not compared: conflict (never assume equal)',
    {
      given: { package: registryPackage(['1.1.0'], '1.1.0'), published: published('sha512-OTHER') },
      want: { action: 'conflict' },
    },
  ],
];

describe('planPackage', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const entry = planPackage(local, given);
    expect(entry.action).toBe(want.action);
    if (want.tag) expect(entry).toMatchObject({ tag: want.tag });
  });
});

describe('needsContentCheck', () => {
  it('fetches the published tarball only when the integrities differ and nothing was compared yet', () => {
    expect(needsContentCheck(local, {})).toBe(false);
    expect(needsContentCheck(local, { published: published('sha512-LOCAL') })).toBe(false);
    expect(needsContentCheck(local, { published: published('sha512-OTHER') })).toBe(true);
    expect(needsContentCheck(local, { published: published('sha512-OTHER'), differingFiles: ['a'] })).toBe(
      false,
    );
  });
});

describe('distTagFor', () => {
  it.each([
    ['1.0.0', undefined, 'latest'],
    ['1.0.1', '1.0.0', 'latest'],
    ['2.0.0', '1.4.0', 'latest'],
    ['1.5.0', '2.0.0', 'latest-1'],
    ['1.0.0', '1.0.0', 'latest-1'],
    ['3.0.0-rc.1', '2.0.0', 'next'],
  ])('%s with latest %s: %s', (version, latest, tag) => {
    expect(distTagFor(version, latest ? registryPackage([latest], latest) : undefined)).toBe(tag);
  });
});

describe('describeConflict', () => {
  it('names the package, the files, both group hashes and the fix', () => {
    const entry = planPackage(local, {
      published: published('sha512-OTHER'),
      differingFiles: ['index.d.ts', 'schemas/account.created-v1.json'],
    });
    if (entry.action !== 'conflict') throw new Error('expected a conflict');
    expect(describeConflict(entry)).toBe(
      '@platform-events/account@1.1.0 is already published with different content ' +
        '(index.d.ts, schemas/account.created-v1.json); it was built from group content bbbbbbbbbbbb, ' +
        'this one from aaaaaaaaaaaa. A published version never changes: run `eventry version` to give the ' +
        'changed package a new version, then publish again.',
    );
  });
});
