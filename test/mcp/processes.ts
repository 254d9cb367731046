import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { compiledToolkitPath, REPO, seedPackages } from '../helpers.js';

// The compiled MCP servers as processes, for the suites that talk to them.

/** `eventry serve --port 0` of the compiled CLI, once it printed its address. */
export function serve(): Promise<{ url: string; child: ChildProcessWithoutNullStreams }> {
  const child = spawn(
    process.execPath,
    [
      compiledToolkitPath('scripts/eventry.js'),
      'serve',
      '--port',
      '0',
      '--no-cache',
      '--packages',
      seedPackages(),
    ],
    { cwd: REPO },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^eventry: serving (http:\/\/\S+)$/.exec(line);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

/** `eventry mcp` of the compiled CLI over the seed's packages: a child speaking JSON-RPC on its stdio. */
export function mcpProcess(): ChildProcessWithoutNullStreams {
  return spawn(
    process.execPath,
    [compiledToolkitPath('scripts/eventry.js'), 'mcp', '--packages', seedPackages(), '--no-cache'],
    { cwd: REPO },
  );
}

/** The SDK's own client connected to `eventry mcp` of the compiled CLI over stdio, on the seed's packages. */
export async function connectStdio(): Promise<Client> {
  const client = new Client({ name: 'eventry-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [compiledToolkitPath('scripts/eventry.js'), 'mcp', '--packages', seedPackages(), '--no-cache'],
      cwd: REPO,
      stderr: 'pipe',
    }),
  );
  return client;
}
