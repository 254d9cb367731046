import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FastLoad } from '../../../../generators/execute/fast/load/index.js';
import { YamlSource } from '../../../../generators/load/yaml-source.js';
import { REPO } from '../../../helpers.js';
import { expectSame, locationsOf, pathsOf } from '../../../load/yaml-paths.js';

/** The fast path alone (no cache, no memo); `YamlSource.parse` is the reference. */
const FAST = new FastLoad();

/** Every YAML file git tracks: the catalogue, the fixtures (good and bad), the workflows. */
const FILES = execFileSync('git', ['ls-files', '-z', '*.yaml', '*.yml'], { cwd: REPO, encoding: 'utf8' })
  .split('\0')
  .filter((path) => path !== '')
  .map((path) => ({ path, text: readFileSync(join(REPO, path), 'utf8') }));

describe('the js-yaml fast path reads every repository YAML file it accepts exactly as yaml does', () => {
  it('accepts the catalogue files (or the fast path would be dead code)', () => {
    const catalogue = FILES.filter((file) => file.path.startsWith('catalogue/groups/'));
    expect(catalogue.length).toBeGreaterThan(0);
    const declined = catalogue.filter((file) => !FAST.parse(file).source?.fast).map((file) => file.path);
    expect(declined).toEqual([]);
  });

  it.each(FILES.map((file) => [file.path, file] as const))(
    '%s: same value, same location for every path',
    (_, file) => {
      const fast = FAST.parse(file);
      const reference = YamlSource.parse(file);
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

describe('the fast path takes only the plain subset, and hands the rest to yaml', () => {
  const cases: [string, { text: string; fast: boolean }][] = [
    [
      'block mappings, flow mappings and sequences',
      { text: 'a:\n  b: { type: x, c: [1, 2] }\n  d:\n    - x\n', fast: true },
    ],
    ['quoted keys and values, located at the quote', { text: '"a": \'b\'\nc: "d\\u00e9"\n', fast: true }],
    ['a flow collection spanning lines, indented', { text: 'k: {a: [b,\n c]}\n', fast: true }],
    ['a flow collection not indented enough (yaml: BAD_INDENT)', { text: 'key: {\na: 1 }\n', fast: false }],
    ['an empty value (yaml locates it after the colon)', { text: 'a:\nb: 1\n', fast: false }],
    ['a block scalar (yaml locates it at its header)', { text: 'a: |\n  text\n', fast: false }],
    ['an anchor and an alias', { text: 'a: &x 1\nb: *x\n', fast: false }],
    ['a tag', { text: 'a: !!str 1\n', fast: false }],
    ['a merge key', { text: 'a: {x: 1}\nb:\n  <<: {y: 2}\n', fast: false }],
    ['a document marker', { text: '---\na: 1\n', fast: false }],
    ['a directive', { text: '%YAML 1.2\n---\na: 1\n', fast: false }],
    ['a tab', { text: 'a:\n\tb: 1\n', fast: false }],
    ['a carriage return', { text: 'a: 1\r\nb: 2\r\n', fast: false }],
    ['a byte order mark', { text: '\uFEFFa: 1\n', fast: false }],
    ['a control character', { text: 'a: "\u0007"\n', fast: false }],
    ['a number-like key', { text: '1: a\n', fast: false }],
    ['a null key', { text: 'null: a\n', fast: false }],
    ['a `__proto__` key', { text: '__proto__: {a: 1}\n', fast: false }],
    ['a number spelling the schemas may read apart', { text: 'a: 1e3\n', fast: false }],
    ['a duplicate key (js-yaml throws, yaml reports it located)', { text: 'a: 1\na: 2\n', fast: false }],
    ['an empty file', { text: '', fast: false }],
    ['two documents', { text: 'a: 1\n---\nb: 2\n', fast: false }],
    ['a key longer than either parser allows on one line', { text: `${'k'.repeat(1100)}: 1\n`, fast: false }],
  ];
  it.each(cases)('%s', (_, { text, fast }) => {
    const file = { path: 'groups/x.yaml', text };
    const parsed = FAST.parse(file);
    const reference = YamlSource.parse(file);
    expect(parsed.source?.fast ?? false).toBe(fast);
    expect(reference.source?.fast ?? false).toBe(false);
    expect(parsed.problems).toEqual(reference.problems);
    expectSame(parsed.source?.value, reference.source?.value);
    if (parsed.source && reference.source) {
      const paths = pathsOf(reference.source.value);
      expect(locationsOf(parsed.source, paths)).toEqual(locationsOf(reference.source, paths));
    }
  });
});
