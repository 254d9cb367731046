import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FastLoad } from '../../../../generators/execute/fast/load/index.js';
import {
  type CatalogueSourceFile,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../../../../generators/load/index.js';
import { YamlSource } from '../../../../generators/load/yaml-source.js';
import { REPO } from '../../../helpers.js';
import { type Mutation, mutate, mutationArbitrary } from '../../../load/mutate-catalogue.js';
import { expectSame, locationsOf, pathsOf } from '../../../load/yaml-paths.js';

/** The fast path alone (no cache, no memo); `YamlSource.parse` is the reference. */
const FAST = new FastLoad();

/**
 * Holds the js-yaml fast path to the `yaml` path on near-catalogue texts: real catalogue files with
 * random edits and with characters from the YAML-significant alphabet inserted, so that many mutants
 * stay inside the subset the fast path takes and the rest land right on its border. `FAST_RUNS` and
 * `FAST_SEED` reproduce or widen a run.
 */
const RUNS = Number(process.env.FAST_RUNS ?? 200);
const SEED = Number(process.env.FAST_SEED ?? 20_261_123);

/** Characters and words that change a YAML text's meaning and that the fast path may still take. */
const INSIDE = [
  ...': -,[]{}"\'#.~0123456789eE+xo\\/@`',
  ' ',
  '  ',
  '\n',
  '\n  ',
  'é',
  '\u00a0',
  'null',
  'true',
  'yes',
  '.inf',
  '1.0.0',
  '0x1F',
  '1e3',
  '-0',
  '007',
  '__proto__',
];
/** What lies on the fast path's border: it must hand all of these to yaml. */
const BORDER = [...'%&*!?|><\t\r', '😀', '\u2028', '---', '<<'];

/** An edit inside a line: a few characters, mostly ones the fast path may still take. */
const yamlInsert = (lineCount: number): fc.Arbitrary<Mutation> =>
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat({ max: Math.max(0, lineCount - 1) }),
    offset: fc.nat({ max: 80 }),
    text: fc
      .array(fc.oneof({ arbitrary: fc.constantFrom(...INSIDE), weight: 6 }, fc.constantFrom(...BORDER)), {
        minLength: 1,
        maxLength: 3,
      })
      .map((parts) => parts.join('')),
  });

const real = readCatalogueSources(`${REPO}catalogue`).filter((file) => file.path !== 'allow-breaking.yaml');
const groupFiles = real.filter((file) => file.path.startsWith('groups/'));
const common = real.filter((file) => !file.path.startsWith('groups/'));

const caseArbitrary = fc
  .record({ group: fc.nat({ max: groupFiles.length - 1 }), target: fc.constantFrom(0, 1, 2, 2) })
  .chain(({ group, target }) => {
    const files = [...common, groupFiles[group]!];
    // Mostly the group file: the config has a block scalar, so the fast path never takes it.
    const index = target % files.length;
    const lines = files[index]!.text.split('\n').length;
    return fc.record({
      group: fc.constant(group),
      index: fc.constant(index),
      mutations: fc.array(fc.oneof({ arbitrary: yamlInsert(lines), weight: 4 }, mutationArbitrary(lines)), {
        minLength: 1,
        maxLength: 2,
      }),
    });
  });

describe('the js-yaml fast path on mutated catalogue files', () => {
  it('gives the same load result (model or problems) as the yaml path, and the same value and locations', () => {
    const seen = { fast: 0, declined: 0 };
    fc.assert(
      fc.property(caseArbitrary, ({ group, index, mutations }) => {
        const files: CatalogueSourceFile[] = [...common, groupFiles[group]!].map((file, i) =>
          i === index ? mutations.reduce(mutate, file) : file,
        );
        const mutated = files[index]!;
        const fast = FAST.parse(mutated);
        if (fast.source?.fast) {
          seen.fast++;
          const reference = YamlSource.parse(mutated);
          expect(reference.problems).toEqual([]);
          expectSame(fast.source.value, reference.source!.value);
          const paths = pathsOf(reference.source!.value);
          expect(locationsOf(fast.source, paths)).toEqual(locationsOf(reference.source!, paths));
        } else {
          seen.declined++;
        }
        expectSame(loadCatalogueFromSources(files, { accelerator: FAST }), loadCatalogueFromSources(files));
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // Both sides of the border were exercised: mutants the fast path took, and mutants it handed to yaml.
    expect(seen.fast).toBeGreaterThan(RUNS / 10);
    expect(seen.declined).toBeGreaterThan(RUNS / 10);
  }, 300_000);
});
