import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../generators/cli/main.js';
import { loadValid, REPO, tempDir } from '../helpers.js';

// `eventry mcp` reports an internal error's cause on its container's stderr, as every command does:
// never on the process's own stderr, which an in-process run (or a host embedding the CLI) does not own.

/** A packages folder whose one group package is there but throws when asked to validate. */
function brokenPackages(key: string): string {
  const dir = tempDir('eventry-mcp-broken-');
  mkdirSync(join(dir, 'broken', 'events'), { recursive: true });
  writeFileSync(join(dir, 'broken', 'events', `${key}.js`), 'export {};\n');
  writeFileSync(
    join(dir, 'broken', 'index.js'),
    "export function validate() { throw new Error('validator exploded'); }\n",
  );
  return dir;
}

/** A writable stream that keeps what is written to it. */
function memoryOutput(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Resolves with the JSON-RPC answer of `id` once it is written to `stdout`. */
function answerOf(stdout: { text(): string }, id: number): Promise<Record<string, unknown>> {
  return vi.waitFor(
    () => {
      const line = stdout
        .text()
        .split('\n')
        .filter((text) => text.trim() !== '')
        .map((text) => JSON.parse(text) as Record<string, unknown>)
        .find((message) => message.id === id);
      if (!line) throw new Error(`no answer to ${id} yet`);
      return line;
    },
    { timeout: 30_000, interval: 20 },
  );
}

const message = (body: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: '2.0', ...body })}\n`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('eventry mcp: errors through the container', () => {
  it("an internal error of a tool reaches the container's stderr, the client gets `internal`", async () => {
    const key = Object.keys(loadValid(join(REPO, 'catalogue')).events).sort()[0]!;
    const processStderr = vi.spyOn(process.stderr, 'write');
    const stdin = new PassThrough();
    const stdout = memoryOutput();
    const stderr = memoryOutput();
    const status = runCli(['node', 'eventry', 'mcp', '--no-cache', '--packages', brokenPackages(key)], {
      stdin,
      stdout: stdout.stream,
      stderr: stderr.stream,
      env: { ...process.env, NO_COLOR: '1' },
      cwd: REPO,
      onSignal: () => () => {},
      exit: () => {},
    });
    stdin.write(
      message({
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    await answerOf(stdout, 1);
    stdin.write(message({ method: 'notifications/initialized' }));
    stdin.write(
      message({
        id: 2,
        method: 'tools/call',
        params: { name: 'validate_payload', arguments: { key, payload: {} } },
      }),
    );
    const answer = (await answerOf(stdout, 2)) as { result: { isError: boolean; _meta: unknown } };
    stdin.end();
    expect(await status).toBe(0);

    expect(answer.result.isError).toBe(true);
    expect(answer.result._meta).toEqual({
      'eventry/error': { code: 'internal', message: 'Internal error: the tool could not answer.' },
    });
    expect(JSON.stringify(answer)).not.toContain('validator exploded');
    expect(stderr.text()).toBe('eventry mcp: internal error: Error: validator exploded\n');
    const written = processStderr.mock.calls.map(([chunk]) => String(chunk)).join('');
    expect(written).not.toContain('eventry mcp');
  });
});
