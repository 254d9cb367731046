import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { mcpProcess, serve } from './processes.js';

// A compatibility check runs on a thread of its own (compatibility-runner.ts). Neither server may be
// kept alive by it once its client is gone: an agent's `eventry mcp` ends with its stdin, and
// `eventry serve` with SIGTERM, as on any other call.

/** A compatibility check of the seed's account.created-v1 against a bare object schema. */
const CHECK = {
  name: 'check_compatibility',
  arguments: { subject: 'account.created-v1', schema: { type: 'object' } },
};

/** The exit code, or a sentence when the process is still running 10 s later (then killed). */
async function exitOf(child: ChildProcess): Promise<number | null | string> {
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  const outcome = await Promise.race([
    exited,
    new Promise<string>((resolve) => setTimeout(() => resolve('still running 10 s later'), 10_000)),
  ]);
  if (typeof outcome === 'string') child.kill('SIGKILL');
  return outcome;
}

describe('a compatibility check never keeps a server alive', () => {
  it('eventry mcp (stdio) ends with exit 0 when its stdin ends after a check_compatibility', async () => {
    const child = mcpProcess();
    const answers = createInterface({ input: child.stdout });
    const answered = new Promise<Record<string, unknown>>((resolve) =>
      answers.on('line', (line) => {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (message.id === 'check') resolve(message);
      }),
    );
    const send = (message: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 'check', method: 'tools/call', params: CHECK });
    const answer = (await answered) as { result?: { structuredContent?: Record<string, unknown> } };
    expect(answer.result?.structuredContent).toHaveProperty('compatible');
    child.stdin.end();
    expect(await exitOf(child)).toBe(0);
  }, 60_000);

  it('eventry serve ends with exit 0 on SIGTERM after a check_compatibility through /mcp', async () => {
    const served = await serve();
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', served.url)));
    const result = await client.callTool(CHECK);
    expect(result.structuredContent).toHaveProperty('compatible');
    await client.close();
    served.child.kill('SIGTERM');
    expect(await exitOf(served.child)).toBe(0);
  }, 60_000);
});
