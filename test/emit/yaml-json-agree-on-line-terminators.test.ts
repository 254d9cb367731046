import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildCatalogue } from '../../generators/execute/fast/build.js';
import { readCatalogueSources } from '../../generators/load/index.js';
import { fixturePath, tempDir } from '../helpers.js';

// A U+2028 in a description once got four spaces inserted after it in openapi.yaml and asyncapi.yaml
// (a multiline `^` in the indenter matched after it) while the JSON documents were right. Every line
// terminator and every character YAML treats specially goes through a real build, and both documents
// of each kind must parse to the same value.

const TERMINATORS = [
  '\n',
  '\r',
  '\r\n',
  '\n\r',
  '\u0085',
  '\u2028',
  '\u2029',
  '\v',
  '\f',
  '\u001c',
  '\u001d',
  '\u001e',
];

const SPECIAL = [
  '-',
  '- item',
  '? key',
  ':',
  'a: b',
  'a:b',
  '# comment',
  'a #b',
  '&anchor',
  '*alias',
  '!tag',
  '!!str',
  '|',
  '| block',
  '>',
  '> folded',
  "'",
  "it's",
  '"',
  'say "hi"',
  '%YAML 1.2',
  '@reserved',
  '`tick`',
  '\ttab',
  'tab\tinside',
  'trailing tab\t',
  '\ufeffBOM first',
  'BOM \ufeff inside',
  'NUL \u0000 inside',
  'trailing spaces   ',
  '   leading spaces',
  ' ',
  '',
  '---',
  '...',
  '--- a',
  'yes',
  'no',
  'on',
  'off',
  'Yes',
  'NO',
  'y',
  'n',
  'true',
  'False',
  'null',
  '~',
  '0',
  '007',
  '0x1F',
  '0o17',
  '1e3',
  '-1.5',
  '.inf',
  '-.Inf',
  '.nan',
  '1_000',
  '2026-11-27',
  '12:30:00',
  '[a, b]',
  '{a: b}',
  ',',
  '\\',
  'a\\nb',
  '\u00a0nbsp',
  'emoji 😀',
  'lone \ud800 surrogate',
  '\u007f',
  '\u001b[31mred',
];

/** The texts under test: each special text alone, and each terminator alone, inside and at both ends. */
const TEXTS = [
  ...SPECIAL,
  ...TERMINATORS.flatMap((t) => [
    t,
    `a${t}b`,
    `${t}a`,
    `a${t}`,
    `a${t}${t}b`,
    `a${t}  b`,
    `a${t}- b`,
    `a${t}#b`,
  ]),
];

/** A YAML double-quoted scalar for any text (escapes every non-printable-ASCII character). */
const quoted = (text: string) =>
  `"${[...text]
    .map((c) =>
      c === '"' || c === '\\'
        ? `\\${c}`
        : /[ -~]/.test(c)
          ? c
          : [...c].length === 1 && c.length === 2
            ? `\\U${c.codePointAt(0)!.toString(16).padStart(8, '0')}`
            : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .join('')}"`;

describe('the YAML and JSON documents agree on every line terminator and YAML special character', () => {
  it('descriptions and enum values with them: openapi.yaml = openapi.json, asyncapi.yaml = asyncapi.json', async () => {
    const sources = readCatalogueSources(fixturePath('small')).map((file) => {
      if (!file.path.endsWith('account.yaml')) return file;
      const fields = TEXTS.map(
        (text, i) => `      text_${i}: {type: string, description: ${quoted(text || 'empty')}}\n`,
      ).join('');
      const values = [...new Set(TEXTS.filter((text) => text.trim() !== '' && !text.includes('\ud800')))];
      const text = file.text
        .replace(
          '    description: An account was created.\n',
          `    description: ${quoted(`start${TEXTS.join('|')}end`)}\n`,
        )
        .replace(
          '      tags: {type: [[integer]]}\n',
          `      tags: {type: [[integer]]}\n${fields}      odd: {type: string, enum: [${values.map(quoted).join(', ')}]}\n`,
        );
      return { ...file, text };
    });
    const out = join(tempDir(), 'out');
    const result = await buildCatalogue(sources, out);
    expect(result.kind, JSON.stringify(result).slice(0, 2000)).toBe('built');
    for (const name of ['openapi', 'asyncapi']) {
      const yamlText = readFileSync(join(out, 'catalogue', `${name}.yaml`), 'utf8');
      const json = JSON.parse(readFileSync(join(out, 'catalogue', `${name}.json`), 'utf8'));
      expect(parse(yamlText, { uniqueKeys: true })).toEqual(json);
      // The texts reached the documents (the comparison is not of two empty documents).
      expect(JSON.stringify(json)).toContain(JSON.stringify('a\u2028b').slice(1, -1));
    }
  });
});
