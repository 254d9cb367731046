import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { YamlSource } from '../../../generators/load/yaml-source.js';
import { REPO } from '../../helpers.js';

/** Every YAML file git tracks: the catalogue, the fixtures (good and bad), the workflows. */
const FILES = execFileSync('git', ['ls-files', '-z', '*.yaml', '*.yml'], { cwd: REPO, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path !== '')
  .map((path) => ({ path, text: readFileSync(join(REPO, path), 'utf8') }));

type Path = (string | number)[];

/**
 * Node's strict deep equality: vitest's `toStrictEqual` compares `constructor` properties as class
 * markers, so two equal values with a `constructor` key would differ. `toEqual` first, for its diff.
 */
function expectSame(actual: unknown, expected: unknown): void {
  if (isDeepStrictEqual(actual, expected)) return;
  expect(actual).toEqual(expected);
  expect.fail('the values differ in prototypes or in properties set to undefined');
}

/** Every path into `value`, and beside each collection a key and an index that are not there (nearest-ancestor lookups). */
function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) pathsOf(item, [...path, index], out);
    out.push([...path, value.length], [...path, 'missing']);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], out);
    out.push([...path, 'missing', 'deeper'], [...path, 0]);
  }
  return out;
}

/** Where a source puts every path, as values and as keys. */
function locationsOf(source: YamlSource, paths: Path[]) {
  return paths.map((path) => ({ path, at: source.at(path), keyAt: source.keyAt(path) }));
}

describe('the js-yaml fast path reads every repository YAML file it accepts exactly as yaml does', () => {
  it('accepts the catalogue files (or the fast path would be dead code)', () => {
    const catalogue = FILES.filter((file) => file.path.startsWith('catalogue/groups/'));
    expect(catalogue.length).toBeGreaterThan(0);
    const declined = catalogue
      .filter((file) => !YamlSource.parse(file).source?.fast)
      .map((file) => file.path);
    expect(declined).toEqual([]);
  });

  it.each(FILES.map((file) => [file.path, file] as const))(
    '%s: same value, same location for every path',
    (_, file) => {
      const fast = YamlSource.parse(file);
      const reference = YamlSource.parse(file, { fastPath: false });
      if (!fast.source?.fast) {
        // Declined: the loader reads it with yaml, so the outcome is the reference's, problem for problem.
        expect(fast.problems).toEqual(reference.problems);
        expectSame(fast.source?.value, reference.source?.value);
        return;
      }
      expect(reference.problems).toEqual([]);
      expect(fast.problems).toEqual([]);
      expectSame(fast.source.value, reference.source!.value);
      const paths = pathsOf(reference.source!.value);
      expect(locationsOf(fast.source, paths)).toEqual(locationsOf(reference.source!, paths));
    },
  );
});
