// Verdaccio helpers for `npm run npm-registry`, the benchmarks and the end-to-end tests: tooling around
// the product, never imported by generators/.

import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { runServer } from 'verdaccio';

/** Options of a local Verdaccio. */
export interface LocalRegistryOptions {
  /** Folder for the published packages (created if missing). */
  storage: string;
  /** Loopback by default: the registry lets anyone publish, so it must not listen on a network. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Verdaccio's log level: `warn` (quiet) or `http` (one line per request). */
  logLevel?: 'warn' | 'info' | 'http';
}

/** A running local registry. */
export interface LocalRegistry {
  /** `http://127.0.0.1:PORT/`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The Verdaccio configuration eventry runs: no uplinks, so it never proxies anything (a package it
 * does not hold is a 404, never a copy from the public registry); every package readable and
 * publishable without an account. npm still sends a token to publish: any value is accepted.
 */
function localRegistryConfig(storage: string, logLevel: LocalRegistryOptions['logLevel'] = 'warn') {
  const open = { access: '$all', publish: '$all', unpublish: '$all' };
  return {
    // Verdaccio resolves relative paths against the config file's folder; there is no file, only this.
    self_path: join(storage, 'config.yaml'),
    configPath: join(storage, 'config.yaml'),
    storage,
    uplinks: {},
    packages: { '@*/*': open, '**': open },
    web: { enable: false },
    log: { type: 'stdout', format: 'pretty', level: logLevel },
    max_body_size: '50mb',
  };
}

/** Starts Verdaccio in this process (ready in well under a second) and resolves once it listens. */
export async function startLocalRegistry(options: LocalRegistryOptions): Promise<LocalRegistry> {
  const storage = resolve(options.storage);
  mkdirSync(storage, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  const config = localRegistryConfig(storage, options.logLevel) as unknown as Parameters<typeof runServer>[0];
  const server = (await runServer(config)) as Server;
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => done());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  return {
    url,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
