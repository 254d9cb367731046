import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeUtf8,
  formatBytes,
  type Line,
  parseByteSize,
  readFileLines,
} from '../../generators/validate/lines.js';

/** Every line `readFileLines` yields for these chunks of stdin, the batches flattened. */
async function linesOf(chunks: (Buffer | string)[], maxBytes = 1024 * 1024): Promise<Line[]> {
  async function* stdin() {
    yield* chunks;
  }
  const lines: Line[] = [];
  for await (const batch of readFileLines('-', maxBytes, stdin())) lines.push(...batch);
  return lines;
}

/** The bytes cut at the given offsets: how a pipe may hand them over. */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const at = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let from = 0;
  for (const to of [...at, bytes.length]) {
    if (to > from) parts.push(bytes.subarray(from, to));
    from = Math.max(from, to);
  }
  return parts;
}

describe('readFileLines: an NDJSON stream as lines', () => {
  it('gives back any lines, however the bytes are cut (multi-byte characters split across chunks too)', async () => {
    const text = fc
      .string({ unit: 'grapheme', maxLength: 12 })
      .map((line) => line.replace(/[\n\r\ufeff]/g, ''));
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        async (lines, offsets, crlf) => {
          const bytes = Buffer.from(`${lines.join(crlf ? '\r\n' : '\n')}\n`);
          const read = await linesOf(cut(bytes, offsets));
          expect(read).toEqual(lines.map((line, i) => ({ number: i + 1, text: line })));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a bare CR inside a line, drops a leading BOM only on the first line, reads a last line without LF', async () => {
    const bom = '\ufeff';
    expect(await linesOf([`${bom}a\rb\n${bom}c\r\nd`])).toEqual([
      { number: 1, text: 'a\rb' },
      { number: 2, text: `${bom}c` },
      { number: 3, text: 'd' },
    ]);
  });

  it('reports invalid UTF-8 as invalid_encoding, never as replaced text, and reads on', async () => {
    const bad = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\nok\n')]);
    expect(await linesOf([bad])).toEqual([
      { number: 1, problem: 'invalid_encoding' },
      { number: 2, text: 'ok' },
    ]);
  });

  it('reports a line over the limit once, skips its rest across chunks, and numbers the lines after it', async () => {
    const chunks = ['short\n', 'x'.repeat(40), 'x'.repeat(40), 'x'.repeat(40), '\nafter\n'];
    expect(await linesOf(chunks, 64)).toEqual([
      { number: 1, text: 'short' },
      { number: 2, problem: 'too_long' },
      { number: 3, text: 'after' },
    ]);
  });
});

describe('decodeUtf8', () => {
  it('drops a BOM and refuses bytes that are not UTF-8', () => {
    expect(decodeUtf8(Buffer.from('\ufeff{"a":1}'))).toBe('{"a":1}');
    expect(decodeUtf8(Buffer.from([0x7b, 0xc3]))).toBeUndefined();
  });
});

describe('--max-bytes sizes', () => {
  it.each([
    ['64MiB', 64 * 1024 ** 2],
    ['512k', 512 * 1024],
    [' 1 GiB ', 1024 ** 3],
    ['100', 100],
    ['100b', 100],
  ])('parses %j', (text, bytes) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  it.each(['lots', '0', '-1', '1.5MiB', '1TiB', '', '9'.repeat(30)])('refuses %j', (text) => {
    expect(parseByteSize(text)).toBeUndefined();
  });

  it('prints any size it parses so that it parses back to the same size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (bytes) => {
        expect(parseByteSize(formatBytes(bytes).replace(' bytes', '').replace(' ', ''))).toBe(bytes);
      }),
    );
    expect(formatBytes(64 * 1024 ** 2)).toBe('64 MiB');
    expect(formatBytes(1500)).toBe('1500 bytes');
  });
});
