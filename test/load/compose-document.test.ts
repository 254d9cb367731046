import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Document, Parser, parseDocument } from 'yaml';
import { composeDocument } from '../../generators/load/yaml-document.js';

// The loader lexes and parses each file once and composes the document from those tokens itself, where
// it used to call `parseDocument` on the text: the two must not be told apart, whatever the text.

/** Pieces of YAML, well and badly formed: structure, scalars, anchors and aliases, tags, tabs, documents. */
const FRAGMENTS = [
  'a',
  'b: ',
  'a: ',
  'key: value\n',
  '- ',
  '\n',
  '  ',
  '    ',
  '\t',
  '{',
  '}',
  '[',
  ']',
  ', ',
  ': ',
  '? ',
  '&x ',
  '*x',
  '*y',
  '<<: ',
  '---\n',
  '...\n',
  '"q"',
  '"',
  "'s'",
  "'",
  '# c\n',
  '!!str ',
  '!!int ',
  '|\n',
  '>-\n',
  '1',
  '0x1F',
  '1.5e3',
  'true',
  'null',
  '~',
  '2024-01-01',
  '%YAML 1.2\n',
  '@',
  '`',
  '\r\n',
];
const textArbitrary = fc
  .array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 })
  .map((parts) => parts.join(''));

const OPTIONS = { uniqueKeys: true, prettyErrors: false, logLevel: 'error' } as const;

/** What a user could observe of a document: its errors and warnings, and its value (or why there is none). */
function observe(doc: Document.Parsed) {
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    value = { threw: (error as Error).message };
  }
  const issues = (list: typeof doc.errors) => list.map(({ code, pos, message }) => ({ code, pos, message }));
  return { errors: issues(doc.errors), warnings: issues(doc.warnings), range: doc.range, value };
}

describe('composeDocument', () => {
  it("is yaml's parseDocument with the same options, on any text (errors, warnings, value)", () => {
    fc.assert(
      fc.property(textArbitrary, (text) => {
        const ours = composeDocument([...new Parser().parse(text)], text.length);
        expect(observe(ours)).toEqual(observe(parseDocument(text, OPTIONS)));
      }),
      { numRuns: 2000, seed: 20_261_123 },
    );
  });

  it.each([
    ['a second document', 'a: 1\n---\nb: 2\n'],
    ['an empty text', ''],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a tab as indentation', 'a:\n\tb: 1\n'],
  ])('%s: as parseDocument', (_, text) => {
    const ours = composeDocument([...new Parser().parse(text)], text.length);
    expect(observe(ours)).toEqual(observe(parseDocument(text, OPTIONS)));
  });
});
