import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indentedJson } from '../../../generators/execute/fast/document-text.js';

/** What the catalogue documents' JSON entries were written as: the text, each line after the first indented. */
function reference(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 2);
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

describe('a JSON value indented where it goes in a document', () => {
  it('is the pretty JSON text with each line after the first led by the indent, at any depth', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat({ max: 6 }), (value, levels) => {
        const indent = '  '.repeat(levels);
        expect(indentedJson(value, indent)).toBe(reference(value, indent));
      }),
      { numRuns: 500, seed: 20_261_124 },
    );
  });

  it('strings with line breaks, empty objects and arrays, and indents that are not whole levels', () => {
    const value = { text: 'a\nb', empty: {}, none: [], nested: [{ deep: { deeper: [1, 'x\n'] } }] };
    for (const indent of ['  ', '    ', '   ', ' ', '\t', '      ']) {
      expect(indentedJson(value, indent)).toBe(reference(value, indent));
    }
    expect(indentedJson('plain', '    ')).toBe('"plain"');
    expect(indentedJson(null, '  ')).toBe('null');
  });
});
