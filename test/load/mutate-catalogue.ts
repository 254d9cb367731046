import fc from 'fast-check';
import type { CatalogueSourceFile } from '../../generators/load/index.js';

/** One edit an author (or an attacker) could make to a catalogue file. */
export type Mutation =
  | { kind: 'delete-line'; at: number }
  | { kind: 'duplicate-line'; at: number }
  | { kind: 'indent'; at: number; by: number }
  | { kind: 'tab-indent'; at: number }
  | { kind: 'insert'; at: number; offset: number; text: string }
  | { kind: 'replace-word'; at: number; nth: number; text: string }
  | { kind: 'replace-key'; at: number; text: string }
  | { kind: 'rename-file'; text: string };

/** Words and fragments that broke the loader or the emitters before, or plausibly could. */
const HOSTILE_WORDS = [
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  'prototype',
  'catalogue',
  'bool',
  'Boolean',
  'null',
  '~',
  '""',
  "''",
  '1e400',
  '-0',
  '.nan',
  '2020-01-01',
  'yes',
  '*missing',
  '&anchor',
  '*anchor',
  '[[[[[[[[[[[[string]]]]]]]]]]]]',
  `${'[['.repeat(40)}string${']]'.repeat(40)}`,
  'a_b-v1',
  'a.b-v1',
  'EventPayloadMap',
  'AccountCreatedV1',
  `x${'y'.repeat(300)}-v1`,
  `${'a'.repeat(300)}`,
  '!!binary aGVsbG8=',
  '!!set {a, b}',
  '!custom tag',
  '<<',
  '"\\u0000"',
  '[]',
  '{}',
  '[string, integer]',
  '{type: string}',
  '"a\\nb"',
  '0x1F',
  '9007199254740993',
];

const HOSTILE_FRAGMENTS = [
  ':',
  ': ',
  '{',
  '}',
  '[',
  ']',
  ',',
  '- ',
  '"',
  "'",
  '#',
  '\t',
  '\n',
  '? ',
  '%YAML 1.2\n---\n',
  '---\n',
  '...\n',
  '&a ',
  '*a',
  '<<: *a\n',
  '\u0000',
  '\u00a0',
  '\ufeff',
  'x: &a [*a]\n',
  `${'['.repeat(2000)}`,
  `${'- '.repeat(500)}x\n`,
  'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
  '__proto__: {type: string}\n',
];

const FILE_NAME_TAILS = ['\n', '\r', '\u0007', '\u001b[31m', ' ', '/..', '.yaml/x', '-ü'];

/** A fast-check arbitrary of one mutation to a file of `lineCount` lines. */
export function mutationArbitrary(lineCount: number): fc.Arbitrary<Mutation> {
  const line = fc.nat({ max: Math.max(0, lineCount - 1) });
  return fc.oneof(
    fc.record({ kind: fc.constant('delete-line' as const), at: line }),
    fc.record({ kind: fc.constant('duplicate-line' as const), at: line }),
    fc.record({ kind: fc.constant('indent' as const), at: line, by: fc.integer({ min: -3, max: 3 }) }),
    fc.record({ kind: fc.constant('tab-indent' as const), at: line }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: line,
      offset: fc.nat({ max: 80 }),
      text: fc.oneof(fc.constantFrom(...HOSTILE_FRAGMENTS), fc.string({ maxLength: 4 })),
    }),
    fc.record({
      kind: fc.constant('replace-word' as const),
      at: line,
      nth: fc.nat({ max: 4 }),
      text: fc.constantFrom(...HOSTILE_WORDS),
    }),
    fc.record({
      kind: fc.constant('replace-key' as const),
      at: line,
      text: fc.constantFrom(...HOSTILE_WORDS),
    }),
    fc.record({ kind: fc.constant('rename-file' as const), text: fc.constantFrom(...FILE_NAME_TAILS) }),
  );
}

/** Applies `mutation` to one file; line and word positions wrap, so every mutation applies. */
export function mutate(file: CatalogueSourceFile, mutation: Mutation): CatalogueSourceFile {
  if (mutation.kind === 'rename-file') {
    const dot = file.path.lastIndexOf('.');
    return { path: `${file.path.slice(0, dot)}${mutation.text}${file.path.slice(dot)}`, text: file.text };
  }
  const lines = file.text.split('\n');
  const at = mutation.at % lines.length;
  const line = lines[at]!;
  switch (mutation.kind) {
    case 'delete-line':
      lines.splice(at, 1);
      break;
    case 'duplicate-line':
      lines.splice(at, 0, line);
      break;
    case 'indent':
      lines[at] = mutation.by >= 0 ? ' '.repeat(mutation.by) + line : line.replace(/^ {1,3}/, '');
      break;
    case 'tab-indent':
      lines[at] = line.replace(/^ +/, '\t');
      break;
    case 'insert': {
      const offset = Math.min(mutation.offset, line.length);
      lines[at] = line.slice(0, offset) + mutation.text + line.slice(offset);
      break;
    }
    case 'replace-key': {
      // The next mapping key from this line on: field names, event keys, shape names, slugs.
      const index = lines.findIndex((text, i) => i >= at && /^\s*[\w.-]+:/.test(text));
      if (index === -1) break;
      lines[index] = lines[index]!.replace(
        /^(\s*)[\w.-]+:/,
        (_, indent: string) => `${indent}${mutation.text}:`,
      );
      break;
    }
    case 'replace-word': {
      const words = [...line.matchAll(/[A-Za-z0-9_.-]+/g)];
      if (words.length === 0) {
        lines[at] = line + mutation.text;
        break;
      }
      const word = words[mutation.nth % words.length]!;
      lines[at] = line.slice(0, word.index) + mutation.text + line.slice(word.index + word[0].length);
      break;
    }
  }
  return { path: file.path, text: lines.join('\n') };
}
