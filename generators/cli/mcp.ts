import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CatalogueView, MAX_MESSAGE_BYTES } from '../mcp/catalogue-view.js';
import { createMcpServer } from '../mcp/server.js';
import { StdioLineTransport } from '../mcp/stdio-transport.js';
import { SchemaRegistryState } from '../schema-registry/registry.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import type { Container } from './container.js';
import { openHistory } from './history.js';
import { ruleDataProbe } from './rule-data.js';
import { usageError } from './usage-error.js';

/** Options of `eventry mcp`. */
export interface McpCommandOptions {
  catalogue?: string;
  /** The built group packages (`packages/`), whose validators, interfaces and examples it answers with. */
  packages?: string;
  /** `--no-cache`: load every release from git, write no cache. */
  cache?: boolean;
}

/**
 * `eventry mcp`: the read-only MCP server over stdio, for coding agents. Standard output is the
 * protocol; everything else goes to standard error. Ends when the client closes standard input.
 */
export async function runMcp(options: McpCommandOptions, io: Container): Promise<ExitStatus> {
  const { cwd } = io;
  const packagesDir = resolve(cwd, options.packages ?? 'packages');
  if (!statSync(packagesDir, { throwIfNoEntry: false })?.isDirectory()) {
    return usageError(
      io,
      'mcp',
      `no packages folder at ${options.packages ?? 'packages'} (run \`eventry build\`, or give --packages <dir>).`,
    );
  }
  const history = openHistory(io, 'mcp', options.catalogue ?? 'catalogue', options.cache !== false);
  if (typeof history === 'number') return history;
  const view = new CatalogueView({
    catalogue: history.current,
    packagesDir,
    registry: new SchemaRegistryState(history),
    catalogueDir: resolve(cwd, options.catalogue ?? 'catalogue'),
    ...(await ruleDataProbe(history.current)),
  });
  const server = createMcpServer(() => view, io.stderr);
  const transport = new StdioLineTransport(io.stdin, io.stdout, MAX_MESSAGE_BYTES);
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return EXIT.ok;
}
