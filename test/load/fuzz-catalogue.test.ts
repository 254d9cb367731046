import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMITTERS } from '../../generators/emit/index.js';
import {
  type CatalogueProblem,
  type CatalogueSourceFile,
  isOwnershipFile,
  loadCatalogueFromSources,
  PROBLEM_CODES,
  readCatalogueSources,
} from '../../generators/load/index.js';
import { REPO } from '../helpers.js';
import { type Mutation, mutate, mutationArbitrary } from './mutate-catalogue.js';

/**
 * Mutates the real catalogue the way authors and attackers do (broken indentation, tabs, stray
 * brackets, aliases, alias bombs, runaway nesting, `__proto__`, over-long keys, control characters
 * in file names, ...) and asserts each outcome is a clean build or located problems, never an
 * exception, from the loader or from any emitter run on what it accepted.
 *
 * Each case is the config, `shapes.yaml` and one group file (the whole catalogue would spend the
 * time re-parsing 19 untouched groups); `FUZZ_RUNS` and `FUZZ_SEED` reproduce or widen a run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_601);
/** The package emitter costs a json-schema-to-typescript and an ajv compile per group: on some cases only. */
const PACKAGE_EVERY = 8;

const real = readCatalogueSources(`${REPO}catalogue`).filter((file) => file.path !== 'allow-breaking.yaml');
const groupFiles = real.filter((file) => file.path.startsWith('groups/'));
// Consumer declarations name events of every group: with one group, they would fail each case.
const common = real.filter((file) => !file.path.startsWith('groups/') && !isOwnershipFile(file.path));

/** One case: which group joins the config and shapes, which of the three files is mutated, and how. */
const caseArbitrary = fc
  .record({ group: fc.nat({ max: groupFiles.length - 1 }), target: fc.nat({ max: 2 }) })
  .chain(({ group, target }) => {
    const files = filesOf(group);
    const index = target % files.length;
    // Indices, not texts, in the case itself: a failure prints a short, reproducible counterexample.
    return fc.record({
      group: fc.constant(group),
      index: fc.constant(index),
      mutations: fc.array(mutationArbitrary(files[index]!.text.split('\n').length), {
        minLength: 1,
        maxLength: 3,
      }),
    });
  });

function filesOf(group: number): CatalogueSourceFile[] {
  return [...common, groupFiles[group]!];
}

function applied(files: CatalogueSourceFile[], index: number, mutations: Mutation[]): CatalogueSourceFile[] {
  return files.map((file, i) => (i === index ? mutations.reduce(mutate, file) : file));
}

/** What makes a problem usable: a known code, a file of the catalogue, a real position, words and a hint. */
function unlocated(problem: CatalogueProblem, paths: Set<string>): string | undefined {
  if (!(problem.code in PROBLEM_CODES)) return `unknown code ${problem.code}`;
  if (!paths.has(problem.file)) return `file ${JSON.stringify(problem.file)} is not a catalogue file`;
  if (!(Number.isInteger(problem.line) && problem.line >= 1)) return `line ${problem.line}`;
  if (!(Number.isInteger(problem.column) && problem.column >= 1)) return `column ${problem.column}`;
  if (!/\S/.test(problem.message) || !/\S/.test(problem.hint ?? '')) return 'no message or no hint';
  return undefined;
}

describe('fuzzing the real catalogue', () => {
  it('every mutation gives a clean build or located problems, never an exception', async () => {
    const outcomes = { clean: 0, problems: 0, packaged: 0 };
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ group, index, mutations }) => {
        const sources = applied(filesOf(group), index, mutations);
        const loaded = loadCatalogueFromSources(sources);
        if (!loaded.ok) {
          outcomes.problems++;
          expect(loaded.problems.length).toBeGreaterThan(0);
          // `missing-config` is located where the config belongs, whether or not such a file exists.
          const paths = new Set([...sources.map((file) => file.path), 'eventry.config.yaml']);
          const bad = loaded.problems
            .map((problem) => [problem, unlocated(problem, paths)] as const)
            .filter(([, why]) => why !== undefined);
          expect(bad).toEqual([]);
          return;
        }
        outcomes.clean++;
        const withPackages = outcomes.clean % PACKAGE_EVERY === 1;
        if (withPackages) outcomes.packaged++;
        for (const emitter of EMITTERS) {
          if (emitter.name === 'group-packages' && !withPackages) continue;
          // An emitter that throws fails the property with the mutation that made it throw.
          const output = await emitter.emit(loaded.catalogue, { versions: {} });
          expect(Array.isArray(output)).toBe(true);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // Both outcomes occur, so the run exercised the emitters as well as the problem reports.
    expect(outcomes.clean).toBeGreaterThan(0);
    expect(outcomes.packaged).toBeGreaterThan(0);
    expect(outcomes.problems).toBeGreaterThan(0);
  }, 300_000);
});
