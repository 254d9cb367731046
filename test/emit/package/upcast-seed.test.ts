import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { testingData } from '../../../generators/emit/package/testing.js';
import { migrationFunction } from '../../../generators/migrate/compile-js.js';
import type { Catalogue, Migration } from '../../../generators/model.js';
import { defineTesting } from '../../../generators/runtime/testing.js';
import {
  multiVersionTypes,
  seedModel,
  withDerivedMigrations,
} from '../../../scripts/bench/migrate-catalogue.js';
import { REPO } from '../../helpers.js';
import { writeModelPackages } from './build-packages.js';

/**
 * A corpus wider than the fixtures: the seed catalogue with a derived upgrade and downgrade between
 * each two versions of its 13 multi-version event types (the bench's, scripts/bench/migrate-catalogue.ts).
 * The build verifies them all; the packages' upcast and downcast give, on payloads of each source
 * version, what the compiled migration gives, valid for the target, the input untouched.
 */
interface GroupModule {
  upcast(from: string, payload: unknown, to?: string): unknown;
  downcast(from: string, payload: unknown, to: string): unknown;
  validate(key: string, payload: unknown): { valid: boolean };
}

const SAMPLES = 30;
let model: Catalogue;
let migrations: Migration[];
const groups = new Map<string, GroupModule>();
beforeAll(async () => {
  ({ model, migrations } = withDerivedMigrations(seedModel(join(REPO, 'catalogue')), true));
  const root = await writeModelPackages(model);
  for (const slug of new Set(migrations.map((one) => model.events[one.from]!.group)))
    groups.set(slug, await import(pathToFileURL(join(root, slug, 'index.js')).href));
}, 300_000);

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFrozen(item);
    Object.freeze(value);
  }
  return value;
}

function payloadsOf(key: string): unknown[] {
  const group = model.groups.find((one) => one.slug === model.events[key]!.group)!;
  const testing = defineTesting<Record<string, unknown>>(
    group.slug,
    testingData(model, { ...group, events: [key] }),
    fc,
  );
  return fc.sample(testing.arbitrary(key), { numRuns: SAMPLES, seed: 7 });
}

describe('the seed with a migration between each two versions of a type', () => {
  it('has one per version after the first of each of the 13 multi-version types, each way', () => {
    const types = multiVersionTypes(model);
    expect(types).toHaveLength(13);
    expect(migrations).toHaveLength(2 * types.reduce((sum, keys) => sum + keys.length - 1, 0));
  });

  it('upcasts and downcasts each source payload as the compiled migration does, validly, the input frozen', () => {
    for (const migration of migrations) {
      const group = groups.get(model.events[migration.from]!.group)!;
      const expected = migrationFunction(model, migration);
      const upward = model.events[migration.to]!.upgrade === migration;
      for (const payload of payloadsOf(migration.from)) {
        const input = deepFrozen(payload);
        const out = upward
          ? group.upcast(migration.from, input, migration.to)
          : group.downcast(migration.from, input, migration.to);
        expect(out, `${migration.from} -> ${migration.to}`).toEqual(expected(input));
        expect(group.validate(migration.to, out), JSON.stringify(out)).toEqual({ valid: true });
      }
    }
  });

  it('upcasts the oldest version of each type to the newest, validly', () => {
    for (const keys of multiVersionTypes(model)) {
      const group = groups.get(model.events[keys[0]!]!.group)!;
      for (const payload of payloadsOf(keys[0]!).slice(0, 10)) {
        const newest = group.upcast(keys[0]!, deepFrozen(payload));
        expect(group.validate(keys.at(-1)!, newest)).toEqual({ valid: true });
        expect(group.downcast(keys.at(-1)!, newest, keys[0]!)).toBeTypeOf('object');
      }
    }
  });
});
