import { describe, expect, it } from 'vitest';
import { setConfigVersion } from '../../generators/release/config-version.js';

const LONG =
  'Every event payload version the platform emits onto its event bus, as published in the platform catalogue.';

describe('setConfigVersion', () => {
  it.each([
    ['a plain config', 'title: T\nversion: 1.4.0\nscope: "@s"\n', 'title: T\nversion: 2.0.0\nscope: "@s"\n'],
    [
      'comments, before and beside the version',
      '# yaml-language-server: $schema=x.json\n# the release\nversion: 1.4.0 # bumped by eventry version\ntitle: T\n',
      '# yaml-language-server: $schema=x.json\n# the release\nversion: 2.0.0 # bumped by eventry version\ntitle: T\n',
    ],
    ['a quoted version stays quoted', "version: '1.4.0'\ntitle: T\n", "version: '2.0.0'\ntitle: T\n"],
    ['a quoted key', '"version": "1.4.0"\ntitle: T\n', '"version": "2.0.0"\ntitle: T\n'],
    [
      'folded text longer than a YAML line is not refolded',
      `version: 1.4.0\ndescription: >-\n  ${LONG}\n  Second line.\n`,
      `version: 2.0.0\ndescription: >-\n  ${LONG}\n  Second line.\n`,
    ],
    ['a flow mapping', '{ title: T, version: 1.4.0 }\n', '{ title: T, version: 2.0.0 }\n'],
  ])('changes only the version in %s', (_name, given, want) => {
    expect(setConfigVersion(given, '2.0.0')).toEqual({ recorded: '1.4.0', text: want });
  });

  it('leaves a `version:` inside a block scalar or a nested mapping alone', () => {
    const given = 'description: |\n  version: 9.9.9\nowner:\n  version: 8.8.8\nversion: 1.4.0\n';
    expect(setConfigVersion(given, '2.0.0')).toEqual({
      recorded: '1.4.0',
      text: 'description: |\n  version: 9.9.9\nowner:\n  version: 8.8.8\nversion: 2.0.0\n',
    });
  });

  it.each([
    ['no version at all', 'title: T\n'],
    ['a version that is a mapping', 'version:\n  major: 1\n'],
    ['a list, not a mapping', '- version: 1.4.0\n'],
  ])('gives undefined for %s', (_name, given) => {
    expect(setConfigVersion(given, '2.0.0')).toBeUndefined();
  });
});
