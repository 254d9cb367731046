import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * Buffered output that honours back-pressure, so a multi-GB stream runs in constant memory. The
 * caller flushes whenever its input is idle, so results are not held back while it waits.
 */
export class BufferedOutput {
  private buffer = '';

  constructor(private readonly stream: Writable) {}

  /** Adds text to the buffer. */
  write(text: string): void {
    this.buffer += text;
  }

  /** Whether text waits in the buffer. */
  get holding(): boolean {
    return this.buffer !== '';
  }

  /** Writes the buffer out once it is large. */
  async flushIfFull(): Promise<void> {
    if (this.buffer.length >= 65_536) await this.flush();
  }

  /** Writes the buffer out, waiting while the stream is full. */
  async flush(): Promise<void> {
    if (this.buffer === '') return;
    const text = this.buffer;
    this.buffer = '';
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }
}

const IDLE = Symbol('idle');
const nextTurn = (): Promise<typeof IDLE> => new Promise((done) => setImmediate(done, IDLE));

/**
 * The next batch of a stream's input; while none is at hand, what `output` holds is flushed, so a live
 * pipe sees each result at once. An unreadable input rejects, as `batches.next()` does.
 */
export async function nextBatch<T>(
  batches: AsyncIterator<T>,
  output: BufferedOutput,
): Promise<IteratorResult<T>> {
  const ready = batches.next();
  if (output.holding && (await Promise.race([ready, nextTurn()])) === IDLE) await output.flush();
  return ready;
}
