import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeLines, writeLines } from '../../generators/validate/fake-lines.js';
import { loadTestingEntry, type TestingEntry } from '../../generators/validate/testing-entry.js';
import { type BuiltPackages, buildPackages } from '../emit/package/build-packages.js';
import { fixturePath } from '../helpers.js';

/**
 * `eventry fake`'s lines (generators/validate/fake-lines.ts) stream: each line is written as it is
 * drawn, never more than a block ahead of what stdout took, so memory stays flat for any `-n` (the
 * documented maximum, 10 million, once collected every line first and ran out of heap); a closed
 * stdout ends the drawing. The command itself is in test/cli/fake-stream.test.ts.
 */
let built: BuiltPackages;
const KEY = 'account.created-v1';
beforeAll(async () => {
  built = await buildPackages(fixturePath('small'));
});

/** The testing entry of KEY, with `drawn()` counting the payloads its `fake` has drawn so far. */
async function countingEntry(): Promise<{ testing: TestingEntry; drawn(): number }> {
  const entry = await loadTestingEntry(built.out, KEY);
  if (!entry.ok) throw new Error(entry.problem.message);
  let drawn = 0;
  const testing: TestingEntry = {
    ...entry.testing,
    fake: (key, options) => {
      drawn++;
      return entry.testing.fake(key, options);
    },
  };
  return { testing, drawn: () => drawn };
}

describe('fakeLines and writeLines stream', () => {
  it('draws a payload only about a block ahead of what a slow stdout has taken', async () => {
    const { testing, drawn } = await countingEntry();
    const count = 20_000;
    let written = 0;
    let mostAhead = 0;
    let largestChunk = 0;
    // A stdout that holds one byte and takes each write a turn of the event loop later.
    const slow = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        const lines = chunk.toString().split('\n').length - 1;
        written += lines;
        largestChunk = Math.max(largestChunk, lines);
        mostAhead = Math.max(mostAhead, drawn() - written);
        setImmediate(done);
      },
    });
    expect(await writeLines(fakeLines(testing, { key: KEY, count }), slow)).toBe('written');
    expect(written).toBe(count);
    expect(drawn()).toBe(count);
    // Never more drawn than the block being written: memory does not grow with the count.
    expect(mostAhead).toBeLessThanOrEqual(largestChunk);
    expect(largestChunk).toBeLessThan(count / 10);
  });

  it('stops drawing when stdout closes, and says so', async () => {
    const { testing, drawn } = await countingEntry();
    const closing = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, done) {
        setImmediate(() => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })));
      },
    });
    closing.on('error', () => {});
    const result = await writeLines(fakeLines(testing, { key: KEY, count: 10_000_000 }), closing);
    expect(result).toBe('closed');
    expect(drawn()).toBeLessThan(10_000);
  });

  it('stops drawing when a stdout that takes every write at once reports its reader gone a tick later', async () => {
    const { testing, drawn } = await countingEntry();
    let taken = 0;
    // As a pipe Node writes synchronously: every write is taken at once; the failure comes later.
    const eager = new Writable({
      highWaterMark: 1024 * 1024 * 1024,
      write(chunk: Buffer, _encoding, done) {
        taken += chunk.length;
        if (taken < 200_000) return done();
        setImmediate(() => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })));
      },
    });
    eager.on('error', () => {});
    const result = await writeLines(fakeLines(testing, { key: KEY, count: 10_000_000 }), eager);
    expect(result).toBe('closed');
    expect(drawn()).toBeLessThan(10_000);
  });
});
