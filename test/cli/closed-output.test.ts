import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Container } from '../../generators/cli/container.js';
import { exitQuietlyOnClosedOutput } from '../../generators/cli/main.js';
import { REPO } from '../helpers.js';

/** A stdout whose every write fails with `code`, as a pipe whose reader went away. */
function failingOutput(code: string): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done(Object.assign(new Error(`write ${code}`), { code }));
    },
  });
}

/** A container over `stdout` that records the statuses it is asked to exit with. */
function containerOver(stdout: Writable): { io: Container; exits: number[] } {
  const exits: number[] = [];
  const io: Container = {
    stdin: new PassThrough(),
    stdout,
    stderr: new PassThrough(),
    env: {},
    cwd: REPO,
    onSignal: () => () => {},
    exit: (status) => exits.push(status),
  };
  return { io, exits };
}

describe('a closed output ends the run through the container (`eventry ... | head -1`)', () => {
  it.each([
    ['EPIPE', 141],
    ['ERR_STREAM_DESTROYED', 141],
    ['EIO', 2],
  ])('a write failing with %s exits %i, once, through io.exit', async (code, status) => {
    const { io, exits } = containerOver(failingOutput(code));
    exitQuietlyOnClosedOutput(io);
    io.stdout.write('a line\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([status]);
  });
});
