import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { buildAsyncApi } from '../../../generators/emit/asyncapi.js';
import { buildOpenApi } from '../../../generators/emit/openapi.js';
import { documentJson, documentYaml } from '../../../generators/execute/fast/document-text.js';
import { fixturePath, loadValid, REPO } from '../../helpers.js';

// documentYaml writes the catalogue documents one map entry at a time (for memory); it must give
// exactly yaml's own `stringify(document, { lineWidth: 0 })`, or the committed YAML would change.
const whole = (document: unknown) => stringify(document, { lineWidth: 0 });

describe('documentYaml writes the YAML documents exactly as yaml stringifies them whole', () => {
  const catalogues = [
    ['the seed', join(REPO, 'catalogue')],
    ['fixture small', fixturePath('small')],
  ] as const;
  for (const [name, dir] of catalogues) {
    it(`the OpenAPI and AsyncAPI documents of ${name}`, () => {
      const model = loadValid(dir);
      for (const document of [buildOpenApi(model), buildAsyncApi(model)]) {
        expect(documentYaml(document)).toBe(whole(document));
      }
    });
  }

  // Strings yaml must quote, fold into block scalars or escape, in keys and values, at every depth.
  const awkward = fc.oneof(
    fc.string(),
    fc.constantFrom(
      '',
      ' ',
      'a\nb',
      'a\n\nb\n',
      ' lead',
      'trail ',
      '  \n x',
      'x:\n  - y',
      'true',
      'null',
      '~',
      '0x1F',
      '1e3',
      '.inf',
      '- item',
      '# not a comment',
      'key: value',
      '"quoted"',
      "'single'",
      '@scope/name',
      '@platform-events/account-c01',
      '@',
      '@a b',
      '@a"b',
      '@a:b',
      '`tick`',
      'a `tick` inside',
      'ends with`',
      'a `#` b',
      '#/components/schemas/account.created-v1',
      '#/channels/a.b-v1/messages/a.b-v1',
      '#/',
      '#/a~1b',
      '#/a b',
      '#/a"b',
      '#/a\\b',
      '&anchor',
      '*alias',
      '!tag',
      '%dir',
      '? q',
      'tab\there',
      'é ünïcödé',
      'x'.repeat(1100),
      '__proto__',
      'name',
      'x-npm-package',
      '$ref',
      '$defs',
      'a b',
      'a  b',
      'abc ',
      'True',
      'FALSE',
      'Null',
      'yes',
      'No',
      'on',
      'y',
      'a,b',
      'f(x)',
      'a/b',
      'v1.2',
      'end-',
      'Infinity',
      'NaN',
      'e1',
      '_x',
    ),
    fc.stringMatching(/^[A-Za-z$_][A-Za-z0-9_.,()/ $-]{0,12}$/),
    fc.stringMatching(/^[A-Za-z`#][A-Za-z0-9_.,()/ `#:-]{0,12}$/),
    fc.stringMatching(/^#\/[A-Za-z0-9_./~ "'\\-]{0,16}$/),
  );
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      awkward,
      fc.integer(),
      fc.constantFrom(-0, 0.5, 1e21, 2 ** 53, -(2 ** 60), 1e-7, Number.MAX_VALUE),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      tie('map'),
    ),
    map: fc.dictionary(awkward, tie('value'), { maxKeys: 5 }),
  }));

  it('generated documents with awkward keys and strings at every depth', () => {
    fc.assert(
      fc.property(json.map, (document) => {
        expect(documentYaml(document)).toBe(whole(document));
        expect(documentJson(document)).toBe(JSON.stringify(document, null, 2));
      }),
      { numRuns: 3000 },
    );
  });

  it('a document with one object in two places keeps yaml’s alias', () => {
    const shared = { type: 'string' };
    const document = { components: { schemas: { a: shared, b: shared } } };
    expect(documentYaml(document)).toBe(whole(document));
    expect(documentYaml(document)).toContain('*a1');
  });
});
