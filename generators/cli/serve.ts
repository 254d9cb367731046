import { join, resolve } from 'node:path';
import { CatalogueView } from '../mcp/catalogue-view.js';
import { createMcpHttpHandler } from '../mcp/http.js';
import { SchemaRegistryState } from '../registry/registry.js';
import { createRegistryServer } from '../serve/server.js';
import { EXIT_USAGE } from './exit-codes.js';
import { openHistory } from './history.js';

/** Options of `eventry serve`. */
export interface ServeCommandOptions {
  port?: string;
  host?: string;
  catalogue?: string;
  /** `--access-log`: one JSON line per request on stdout. */
  accessLog?: boolean;
  /** `--no-cache`: load every release from git, write no cache. */
  cache?: boolean;
  /** The docs portal folder served at `/docs/` (`.eventry/site`, what `npm run build` writes). */
  docs?: string;
  /** The built group packages the MCP endpoint validates with. */
  packages?: string;
  cwd?: string;
}

/**
 * `eventry serve`: a read-only Confluent Schema Registry over the catalogue's release history. Prints
 * `eventry: serving http://H:P` once it accepts connections; SIGTERM or SIGINT stop it gracefully
 * (no new connections, requests in flight finish), exit 0.
 */
export async function runServe(options: ServeCommandOptions = {}): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  const port = Number(options.port ?? '8081');
  if (!/^[0-9]{1,5}$/.test(options.port ?? '8081') || port > 65535) {
    process.stderr.write(
      `eventry serve: --port ${options.port} is not a port number (0-65535; 0 picks a free one).\n`,
    );
    return EXIT_USAGE;
  }
  const host = options.host ?? '127.0.0.1';
  const history = openHistory(cwd, options.catalogue ?? 'catalogue', options.cache !== false);
  if (typeof history === 'number') return history;
  const state = new SchemaRegistryState(history);
  const view = new CatalogueView({
    catalogue: history.current,
    packagesDir: resolve(cwd, options.packages ?? 'packages'),
    registry: state,
    catalogueDir: resolve(cwd, options.catalogue ?? 'catalogue'),
  });
  const server = createRegistryServer(state, {
    title: history.current.config.title,
    docsDir: resolve(cwd, options.docs ?? join('.eventry', 'site')),
    mcp: createMcpHttpHandler(() => view),
    ...(options.accessLog ? { accessLog: (line: string) => process.stdout.write(`${line}\n`) } : {}),
  });
  const listening = await new Promise<Error | undefined>((done) => {
    server.once('error', done);
    server.listen(port, host, () => done(undefined));
  });
  if (listening) {
    process.stderr.write(`eventry serve: cannot listen on ${host}:${port}: ${listening.message}\n`);
    return 1;
  }
  const address = server.address();
  const shown = typeof address === 'object' && address ? address.port : port;
  const hostShown = host.includes(':') ? `[${host}]` : host;
  process.stdout.write(`eventry: serving http://${hostShown}:${shown}\n`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      server.close(() => done());
      server.closeIdleConnections();
      // Requests in flight get the request timeout to finish; then the sockets are cut.
      setTimeout(() => server.closeAllConnections(), 10_000).unref();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  return 0;
}
