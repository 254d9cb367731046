import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupApi } from '../../../generators/runtime/runtime.js';
import type { InvalidPayload, TestingApi } from '../../../generators/runtime/testing.js';
import { fixturePath, loadValid, REPO } from '../../helpers.js';
import { type BuiltPackages, buildPackages } from './build-packages.js';

/**
 * The `testing` entry point of the group packages, built from the seed catalogue (`catalogue/`): every
 * payload `fake` and `arbitrary` draw passes the package's own validator in strict mode, and every
 * `invalid` payload gets exactly the error item it promises.
 */
type Group = GroupApi<Record<string, unknown>>;
type Testing = TestingApi<Record<string, unknown>>;

/** Draws per event and variant of `fake`, and samples per event of `arbitrary` (CI budget: a few hundred). */
const DRAWS = 100;
const SAMPLES = 100;

type Loaded = { slug: string; api: Group; testing: Testing };
let seed: BuiltPackages;
const groups: Loaded[] = [];
/** The small fixture's groups: it has what the seed catalogue lacks (enums, date formats, nested arrays). */
const fixtureGroups: Loaded[] = [];
beforeAll(async () => {
  seed = await buildPackages(join(REPO, 'catalogue'));
  const small = await buildPackages(fixturePath('small'));
  for (const [built, into] of [
    [seed, groups],
    [small, fixtureGroups],
  ] as const) {
    // The project has fast-check, as a consumer that property-tests would.
    symlinkSync(
      join(REPO, 'node_modules', 'fast-check'),
      join(built.root, 'node_modules', 'fast-check'),
      'dir',
    );
    for (const group of built.catalogue.groups) {
      const testing = (await import(
        pathToFileURL(join(built.out, group.slug, 'testing.js')).href
      )) as Testing;
      into.push({ slug: group.slug, api: await built.importGroup(group.slug), testing });
    }
  }
}, 120_000);

/** The problems of a payload in strict mode, as `code attr` lines (empty when valid). */
function problems(api: Group, key: string, payload: unknown): string[] {
  const result = api.validate(key, payload);
  return result.valid ? [] : result.error.errors.map((item) => `${item.code} ${item.attr}`);
}

describe('fake and arbitrary draw valid payloads of every event of the seed catalogue', () => {
  it.each(['minimal', 'full', 'random'] as const)(`fake, variant %s, ${DRAWS} draws per event`, (variant) => {
    let events = 0;
    for (const { api, testing } of [...groups, ...fixtureGroups]) {
      for (const key of testing.eventKeys) {
        events++;
        for (let n = 0; n < DRAWS; n++) {
          const payload = testing.fake(key, { seed: n, variant });
          const found = problems(api, key, payload);
          if (found.length > 0) expect({ key, payload, found }).toEqual({ key, payload, found: [] });
        }
      }
    }
    expect(events).toBeGreaterThan(Object.keys(seed.catalogue.events).length);
  });

  it(`arbitrary, ${SAMPLES} samples per event`, () => {
    for (const { api, testing } of [...groups, ...fixtureGroups]) {
      for (const key of testing.eventKeys) {
        for (const payload of fc.sample(testing.arbitrary(key), { numRuns: SAMPLES, seed: 42 })) {
          const found = problems(api, key, payload);
          if (found.length > 0) expect({ key, payload, found }).toEqual({ key, payload, found: [] });
        }
      }
    }
  });
});

describe('invalid payloads carry exactly the problem they promise', () => {
  it('each yields exactly its error item in strict mode, and every kind of problem occurs', () => {
    const kinds = new Set<string>();
    let count = 0;
    for (const { api, testing } of [...groups, ...fixtureGroups]) {
      for (const key of testing.eventKeys) {
        const payloads: InvalidPayload[] = testing.invalid(key);
        for (const { problem, payload, error } of payloads) {
          kinds.add(problem);
          count++;
          const found = problems(api, key, payload);
          if (found.length !== 1 || found[0] !== `${error.code} ${error.attr}`)
            expect({ key, problem, found }).toEqual({ key, problem, found: [`${error.code} ${error.attr}`] });
        }
      }
    }
    expect([...kinds].sort()).toEqual([
      'bad_date',
      'missing_required',
      'null',
      'outside_enum',
      'undocumented_field',
      'wrong_type',
    ]);
    expect(count).toBeGreaterThan(1000);
  });

  it('a partial event (open) gets no undocumented-field problem at its top level', () => {
    const partial = Object.values(seed.catalogue.events).find((event) => event.partial !== undefined)!;
    const { testing } = groups.find(({ testing }) => testing.eventKeys.includes(partial.key))!;
    const attrs = testing
      .invalid(partial.key)
      .filter((one) => one.problem === 'undocumented_field')
      .map((one) => one.error.attr);
    expect(attrs.every((attr) => attr.includes('.'))).toBe(true);
  });
});

describe('fake', () => {
  const billing = () => groups.find((group) => group.slug === 'billing')!.testing;
  const event = (key: string) => seed.catalogue.events[key] ?? loadValid(fixturePath('small')).events[key]!;

  it('gives the same payload for the same seed, in another process too', () => {
    const key = billing().eventKeys[0]!;
    const here = [1, 'x', 7].map((s) => billing().fake(key, { seed: s }));
    expect([1, 'x', 7].map((s) => billing().fake(key, { seed: s }))).toEqual(here);
    const script = `const t = await import(${JSON.stringify(pathToFileURL(join(seed.out, 'billing', 'testing.js')).href)});
process.stdout.write(JSON.stringify([1, 'x', 7].map((s) => t.fake(${JSON.stringify(key)}, { seed: s }))));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual(here);
    expect(billing().fake(key, { seed: 2 })).not.toEqual(here[0]);
  });

  it('minimal has the required fields only, full every field', () => {
    for (const key of billing().eventKeys) {
      const fields = event(key).fields;
      expect(Object.keys(billing().fake(key, { variant: 'minimal' }) as object).sort(), key).toEqual(
        fields
          .filter((field) => field.required)
          .map((field) => field.name)
          .sort(),
      );
      expect(Object.keys(billing().fake(key, { variant: 'full' }) as object).sort(), key).toEqual(
        fields.map((field) => field.name).sort(),
      );
    }
  });

  it('random reaches every enum value and leaves each optional field out sometimes', () => {
    for (const { testing } of [...groups, ...fixtureGroups]) {
      for (const key of testing.eventKeys) {
        const draws = Array.from(
          { length: 200 },
          (_, n) => testing.fake(key, { seed: n }) as Record<string, unknown>,
        );
        for (const field of event(key).fields) {
          const seen = new Set(draws.map((draw) => draw[field.name]));
          if (field.type.kind !== 'array' && 'enum' in field.type && field.type.enum)
            for (const value of field.type.enum)
              expect(seen.has(value), `${key} ${field.name} ${value}`).toBe(true);
          if (!field.required) expect(seen.has(undefined), `${key} ${field.name}`).toBe(true);
        }
      }
    }
  });

  it('looks real: dates, date-times and field-name-aware strings', () => {
    const all = groups.flatMap(({ testing }) =>
      testing.eventKeys.map((key) => JSON.stringify(testing.fake(key, { seed: 3, variant: 'full' }))),
    );
    const text = all.join('\n');
    expect(text).toMatch(/"occurred_at":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/);
    expect(text).toMatch(/"account_number":"A-[0-9A-F]{8}"/);
    expect(text).toMatch(/"supply_start_date":"\d{4}-\d\d-\d\d"/);
  });

  it('names the event key it does not know, with a did-you-mean', () => {
    expect(() => billing().fake('billing.ledger.entry_postd-v2')).toThrow(
      'eventry: `billing.ledger.entry_postd-v2` is not an event of @platform-events/billing. Did you mean `billing.ledger.entry_posted-v2`?',
    );
  });
});

describe('arbitrary', () => {
  it('shrinks a failing property to the minimal payload', () => {
    const { testing } = groups.find((group) => group.slug === 'billing')!;
    for (const key of testing.eventKeys.slice(0, 20)) {
      const run = fc.check(
        fc.property(testing.arbitrary(key), () => false),
        { seed: 1 },
      );
      const counterexample = run.counterexample![0] as Record<string, unknown>;
      expect(Object.keys(counterexample).sort(), key).toEqual(
        Object.keys(testing.fake(key, { variant: 'minimal' }) as object).sort(),
      );
    }
  });
});

describe('the testing entry point costs production code nothing', () => {
  it('is a subpath export that the main entry point and the chunks never import', () => {
    const manifest = JSON.parse(readFileSync(join(seed.out, 'billing', 'package.json'), 'utf8'));
    // ES import only (a top-level await): see test/publish/e2e/testing-from-commonjs.test.ts.
    expect(manifest.exports['./testing']).toEqual({
      import: { types: './testing.d.ts', default: './testing.js' },
    });
    expect(readFileSync(join(seed.out, 'billing', 'index.js'), 'utf8')).not.toMatch(/testing|fast-check/);
  });
});

describe('a project without fast-check', () => {
  it('gets fake and invalid, and a clear error from arbitrary', async () => {
    const small = await buildPackages(fixturePath('small'));
    const testing = (await import(pathToFileURL(join(small.out, 'account', 'testing.js')).href)) as Testing;
    expect(testing.fake('account.created-v1', { seed: 1 })).toBeTypeOf('object');
    expect(() => testing.arbitrary('account.created-v1')).toThrow(
      'eventry: arbitrary() needs fast-check, an optional peer dependency: `npm install --save-dev fast-check` (or pass `{ fc }`).',
    );
    expect(fc.sample(testing.arbitrary('account.created-v1', { fc }), 3)).toHaveLength(3);
  });
});
