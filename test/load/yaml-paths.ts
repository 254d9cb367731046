/** What the fast-path tests compare between the js-yaml and yaml readings of a file. */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import type { YamlSource } from '../../generators/load/yaml-source.js';

/** A path into a parsed YAML value: keys and indexes. */
export type Path = (string | number)[];

/**
 * Node's strict deep equality: vitest's `toStrictEqual` compares `constructor` properties as class
 * markers, so two equal values with a `constructor` key would differ. `toEqual` first, for its diff.
 */
export function expectSame(actual: unknown, expected: unknown): void {
  if (isDeepStrictEqual(actual, expected)) return;
  expect(actual).toEqual(expected);
  expect.fail('the values differ in prototypes or in properties set to undefined');
}

/** Every path into `value`, and beside each collection a key and an index that are not there (nearest-ancestor lookups). */
export function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
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
export function locationsOf(source: YamlSource, paths: Path[]) {
  return paths.map((path) => ({ path, at: source.at(path), keyAt: source.keyAt(path) }));
}
