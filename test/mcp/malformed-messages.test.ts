import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioLineTransport } from '../../generators/mcp/stdio-transport.js';
import { mcpProcess, serve } from './processes.js';

// Every message an MCP client (or a broken one) can send gets the JSON-RPC answer it calls for, at once,
// over stdio and HTTP; the server stays up whatever came before.

/** A JSON-RPC error answer, as the tests read it. */
interface Answer {
  id: unknown;
  error?: { code: number; message: string };
  result?: Record<string, unknown>;
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
});

/** The malformed messages named in the report, and the answer each calls for. */
const MALFORMED: [string, string, { code: number; id: unknown }][] = [
  ['a batch', '[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]', { code: -32600, id: null }],
  ['no jsonrpc', '{"id":3,"method":"tools/list"}', { code: -32600, id: 3 }],
  ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":"a","method":"tools/list"}', { code: -32600, id: 'a' }],
  ['a null id', '{"jsonrpc":"2.0","id":null,"method":"tools/list"}', { code: -32600, id: null }],
  ['an object id', '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}', { code: -32600, id: null }],
  ['string params', '{"jsonrpc":"2.0","id":6,"method":"tools/list","params":"x"}', { code: -32600, id: 6 }],
  ['a number method', '{"jsonrpc":"2.0","id":7,"method":42}', { code: -32600, id: 7 }],
  ['no method, result or error', '{"jsonrpc":"2.0","id":8}', { code: -32600, id: 8 }],
  ['a bare number', '42', { code: -32600, id: null }],
  ['a string', '"tools/list"', { code: -32600, id: null }],
  ['not JSON', '{"jsonrpc":"2.0",', { code: -32700, id: null }],
  ['an unknown method', '{"jsonrpc":"2.0","id":9,"method":"no/such"}', { code: -32601, id: 9 }],
];

/** Reads a child's stdout as JSON lines, one answer at a time. */
class Lines {
  private readonly queue: Answer[] = [];
  private waiting: ((answer: Answer | undefined) => void) | undefined;
  private buffer = '';
  constructor(child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf('\n'); end !== -1; end = this.buffer.indexOf('\n')) {
        const answer = JSON.parse(this.buffer.slice(0, end)) as Answer;
        this.buffer = this.buffer.slice(end + 1);
        if (this.waiting) {
          const resolve = this.waiting;
          this.waiting = undefined;
          resolve(answer);
        } else this.queue.push(answer);
      }
    });
  }
  /** The next answer, or undefined when none comes within `ms` (a client's patience, not a timing). */
  next(ms = 1000): Promise<Answer | undefined> {
    const ready = this.queue.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve(undefined);
      }, ms);
      this.waiting = (answer) => {
        clearTimeout(timer);
        resolve(answer);
      };
    });
  }
}

/** What a line calls for: an answer with its id, no answer (a valid notification or response), or an error. */
function expected(line: string): { answer: false } | { answer: true; id: unknown; error: boolean } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { answer: true, id: null, error: true };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    const id = (value as { id?: unknown } | null)?.id;
    const usable = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
    return { answer: true, id: Array.isArray(value) || !usable ? null : id, error: true };
  }
  const message = parsed.data as { id?: unknown; method?: unknown };
  if (message.id === undefined || message.method === undefined) return { answer: false };
  return { answer: true, id: message.id, error: false };
}

/** Messages of every malformed kind: JSON-RPC-like objects with wrong parts, other JSON, and non-JSON. */
const malformedLine = fc.oneof(
  fc
    .record(
      {
        jsonrpc: fc.constantFrom('2.0', '1.0', 2, null, ''),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.object(), fc.boolean()),
        method: fc.constantFrom('tools/list', 'ping', 'no/such', 42, null, ''),
        params: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.integer()), fc.object()),
        result: fc.object(),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .array(fc.constant({ jsonrpc: '2.0', id: 1, method: 'ping' }), { minLength: 1, maxLength: 3 })
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }).filter((text) => !text.includes('\n') && text.trim() !== ''),
);

describe('eventry mcp over stdio answers every message', () => {
  let child: ChildProcessWithoutNullStreams;
  let lines: Lines;
  let stderr = '';
  const send = (line: string) => {
    child.stdin.write(`${line}\n`);
    return lines.next();
  };
  beforeAll(async () => {
    child = mcpProcess();
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    lines = new Lines(child);
    // The first answer waits for the server to start (it reads the release history first).
    child.stdin.write(`${INITIALIZE}\n`);
    expect((await lines.next(50_000))?.result).toBeDefined();
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }, 60_000);
  afterAll(() => child?.kill());

  it.each(MALFORMED)('%s: the JSON-RPC error it calls for, within a second', async (_name, line, want) => {
    const answer = await send(line);
    expect(answer?.error?.code).toBe(want.code);
    expect(answer?.id).toEqual(want.id);
  });

  it('220 generated malformed messages: every one answered, with its id where it has one; none internal', async () => {
    const samples = fc.sample(malformedLine, { numRuns: 400, seed: 48 });
    let asked = 0;
    const missed: string[] = [];
    for (const line of samples) {
      const want = expected(line);
      if (!want.answer) continue;
      asked += 1;
      const answer = await send(line);
      if (!answer || answer.id !== want.id || (want.error && !answer.error)) missed.push(line);
      if (asked >= 220) break;
    }
    expect(asked).toBe(220);
    expect(missed).toEqual([]);
    expect(stderr).not.toMatch(/internal|Error:|at .*\.js/);
    expect(child.exitCode).toBeNull();
  });

  it('a message over the limit (11 MiB) is refused with an error, and the server stays up', async () => {
    const huge = `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}`;
    const refused = await send(huge);
    expect(refused).toMatchObject({ id: null, error: { code: -32700 } });
    expect(refused?.error?.message).toMatch(/over \d+ bytes/);
    const after = await send('{"jsonrpc":"2.0","id":"after","method":"tools/list"}');
    expect(after?.id).toBe('after');
    expect(after?.result?.tools).toBeDefined();
  });

  it('a payload 5,000 levels deep is input-too-deep, not internal', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const answer = await send(
      `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"validate_payload","arguments":{"key":"account.created-v1","payload":{"a":${deep}}}}}`,
    );
    expect(answer?.result?._meta).toEqual({
      'eventry/error': { code: 'input-too-deep', message: 'The payload nests deeper than 64 levels.' },
    });
  });

  it('20,000 requests sent at once: every one answered, no listener warning', async () => {
    const count = 20_000;
    child.stdin.write(
      Array.from({ length: count }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`).join(''),
    );
    const seen = new Set<unknown>();
    for (let i = 0; i < count; i += 1) {
      // Completeness, not latency: a loaded machine may pause the server between answers.
      const answer = await lines.next(30_000);
      if (!answer) break;
      seen.add(answer.id);
    }
    expect(seen.size).toBe(count);
    expect(stderr).not.toContain('MaxListenersExceededWarning');
  }, 120_000);
});

describe('the stdio transport under back-pressure', () => {
  it('waits for one drain however many answers queue: listeners stay flat over 100k sends', async () => {
    const stdout = new PassThrough({ highWaterMark: 1024 });
    const transport = new StdioLineTransport(new PassThrough(), stdout, 1 << 20);
    await transport.start();
    let most = 0;
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 100_000; i += 1) {
      sends.push(transport.send({ jsonrpc: '2.0', id: i, result: {} }));
      most = Math.max(most, stdout.listenerCount('drain'));
    }
    let read = 0;
    stdout.on('data', (chunk: Buffer) => {
      read += chunk.toString().split('\n').length - 1;
      most = Math.max(most, stdout.listenerCount('drain'));
    });
    await Promise.all(sends);
    expect(read).toBe(100_000);
    expect(most).toBeLessThanOrEqual(1);
  });
});

describe('/mcp of eventry serve answers every malformed message', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    server = await serve();
  }, 60_000);
  afterAll(() => server?.child.kill());

  it.each(MALFORMED.filter(([name]) => name !== 'a batch' && name !== 'an unknown method'))(
    '%s: HTTP 400 with the JSON-RPC error it calls for',
    async (_name, line, want) => {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: line,
        signal: AbortSignal.timeout(1000),
      });
      expect(response.status).toBe(400);
      const answer = (await response.json()) as Answer;
      expect(answer.error?.code).toBe(want.code);
      expect(answer.id).toEqual(want.id);
    },
  );
});
