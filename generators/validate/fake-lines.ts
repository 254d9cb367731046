import type { Writable } from 'node:stream';
import type { FakeVariant } from '../runtime/testing.js';
import type { TestingEntry } from './testing-entry.js';

/** What `eventry fake` draws: `count` payloads of `key` (see `fakeLines`). */
export interface FakeRequest {
  key: string;
  count?: number;
  seed?: string;
  variant?: FakeVariant;
  invalid?: boolean;
}

/**
 * The NDJSON lines of `eventry fake`, each drawn only when it is asked for, so a run of any length holds
 * one line at a time: `{"event": KEY, "payload": ...}` with payload `i` drawn with the seed `<seed>/<i>`
 * (default seed `0`), or with `invalid` the payloads with one known problem each (`problem`, the promised
 * `error` item), at most `count` of them.
 */
export function* fakeLines(testing: TestingEntry, request: FakeRequest): Generator<string, void, void> {
  const { key } = request;
  const seed = request.seed ?? '0';
  if (request.invalid) {
    const payloads = testing.invalid(key, { seed });
    for (const one of payloads.slice(0, request.count ?? payloads.length))
      yield JSON.stringify({ event: key, problem: one.problem, error: one.error, payload: one.payload });
    return;
  }
  const variant = request.variant ?? 'random';
  const count = request.count ?? 1;
  for (let i = 0; i < count; i++)
    yield JSON.stringify({ event: key, payload: testing.fake(key, { seed: `${seed}/${i}`, variant }) });
}

/** How much text `writeLines` gathers before it writes: large enough to write in few calls. */
const BLOCK_CHARS = 64 * 1024;

/**
 * Writes `lines` to `out` as they come, one per line, in blocks of about `blockChars` characters; while
 * `out` is full it waits for it to drain before drawing the next line, so memory stays flat for any
 * number of lines. Stops at once, without an error, when `out` closes or fails (`| head -1`): `closed`.
 */
export async function writeLines(
  lines: Iterable<string>,
  out: Writable,
  blockChars = BLOCK_CHARS,
): Promise<'written' | 'closed'> {
  let block = '';
  for (const line of lines) {
    block += `${line}\n`;
    if (block.length < blockChars) continue;
    if (!(await writeBlock(out, block))) return 'closed';
    block = '';
  }
  if (block !== '' && !(await writeBlock(out, block))) return 'closed';
  return 'written';
}

/**
 * Writes `text`, waiting while `out` is full; false when `out` is (or becomes) closed. A stream that
 * takes every write at once (a pipe Node writes synchronously, a large buffer) reports a closed reader
 * on a later tick: one turn of the event loop per block lets that report arrive before the next block
 * is drawn.
 */
async function writeBlock(out: Writable, text: string): Promise<boolean> {
  if (isClosed(out)) return false;
  if (!out.write(text)) return drained(out);
  await new Promise((resolve) => setImmediate(resolve));
  return !isClosed(out);
}

function isClosed(out: Writable): boolean {
  return out.destroyed || out.writableEnded || out.errored !== null;
}

/** Resolves true when `out` drains, false when it closes or fails first. */
function drained(out: Writable): Promise<boolean> {
  if (isClosed(out)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (ok: boolean) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      out.off('error', onClose);
      resolve(ok);
    };
    const onDrain = () => settle(true);
    const onClose = () => settle(false);
    out.on('drain', onDrain);
    out.on('close', onClose);
    out.on('error', onClose);
  });
}
