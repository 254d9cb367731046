import { createReadStream } from 'node:fs';

/** 64 MiB: the default largest line (`--ndjson`) or file (`KEY FILE...`) that `eventry validate` reads. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** One line of an NDJSON stream, decoded, or why it could not be. `number` counts from 1. */
export type Line =
  | { number: number; text: string }
  | { number: number; problem: 'too_long' | 'invalid_encoding' };

/** A read that stopped because the input broke the limits (not an I/O error from the system). */
class InputTooLargeError extends Error {}

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Splits a byte stream into lines on LF only (readline also splits on a bare CR, which can sit inside
 * a JSON string), drops the CR of a CRLF and a leading UTF-8 BOM, and decodes each line strictly, so
 * invalid UTF-8 is reported instead of silently replaced. A line longer than `maxBytes` is reported
 * as soon as it passes the limit and its rest skipped, so memory stays bounded even on `/dev/zero`.
 * Yields the lines of each chunk together: a caller flushes its output between batches, which is when
 * the input has nothing more ready.
 */
async function* readLines(input: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<Line[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let number = 0;
  let first = true;

  const finish = (bytes: Buffer): Line => {
    number++;
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    let start = 0;
    if (first && end >= 3 && bytes.subarray(0, 3).equals(BOM)) start = 3;
    first = false;
    try {
      return { number, text: decoder.decode(bytes.subarray(start, end)) };
    } catch {
      return { number, problem: 'invalid_encoding' };
    }
  };

  for await (const data of input) {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    const batch: Line[] = [];
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(LF, from);
      const end = newline === -1 ? chunk.length : newline;
      if (skipping) {
        if (newline !== -1) skipping = false;
      } else if (pendingBytes + (end - from) > maxBytes) {
        number++;
        first = false;
        batch.push({ number, problem: 'too_long' });
        pending = [];
        pendingBytes = 0;
        skipping = newline === -1;
      } else if (newline === -1) {
        pending.push(chunk.subarray(from));
        pendingBytes += chunk.length - from;
      } else {
        const segment = chunk.subarray(from, end);
        const bytes = pendingBytes === 0 ? segment : Buffer.concat([...pending, segment]);
        pending = [];
        pendingBytes = 0;
        batch.push(finish(bytes));
      }
      from = newline === -1 ? chunk.length : newline + 1;
    }
    if (batch.length > 0) yield batch;
  }
  if (pendingBytes > 0) yield [finish(Buffer.concat(pending))];
}

/** The lines of a file (`-` for the given stdin); see {@link readLines}. */
export function readFileLines(
  source: string,
  maxBytes: number,
  stdin: AsyncIterable<Buffer | string>,
): AsyncGenerator<Line[]> {
  return readLines(source === '-' ? stdin : createReadStream(source), maxBytes);
}

/**
 * A whole file, at most `maxBytes` long: a FIFO, a device or a file that grows while read stops with
 * {@link InputTooLargeError} instead of filling memory.
 */
export async function readFileLimited(path: string, maxBytes: number): Promise<Buffer> {
  const stream = createReadStream(path);
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      stream.destroy();
      throw new InputTooLargeError(`it is larger than the ${formatBytes(maxBytes)} limit (--max-bytes)`);
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/** Decodes a whole file as UTF-8 without a BOM; undefined when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Buffer): string | undefined {
  const start = bytes.subarray(0, 3).equals(BOM) ? 3 : 0;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes.subarray(start));
  } catch {
    return undefined;
  }
}

/** Parses `--max-bytes`: a whole number of bytes, optionally with a binary suffix (`64MiB`, `512k`). */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+)\s*(?:([kmg])(?:i?b)?|b)?\s*$/i.exec(text);
  if (!match) return undefined;
  const power = { k: 1, m: 2, g: 3 }[(match[2] ?? '').toLowerCase() as 'k' | 'm' | 'g'] ?? 0;
  const value = Number(match[1]) * 1024 ** power;
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** `67108864` as `64 MiB`, for messages. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}
