import { parseByteSize } from '../../validate/lines.js';
import { InvalidArgumentError } from '../commander.js';

/** Commander parser for `--count`: a usage error (exit 2) on anything but a whole number up to 10 million. */
export function payloadCount(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value > 10_000_000)
    throw new InvalidArgumentError('give a whole number from 0 to 10000000.');
  return value;
}

/** Commander parser for a count option: a usage error (exit 2) on anything but a whole number from 0. */
export function count(text: string): number {
  if (!/^\d+$/.test(text)) throw new InvalidArgumentError('give a whole number from 0, e.g. 0 or 25.');
  return Number(text);
}

/** Commander parser for a size option: a usage error (exit 2) on anything but a positive size. */
export function byteSize(text: string): number {
  const bytes = parseByteSize(text);
  if (bytes === undefined)
    throw new InvalidArgumentError('give a positive size in bytes, e.g. 65536 or 64MiB.');
  return bytes;
}
