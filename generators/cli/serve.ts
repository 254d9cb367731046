import { join, resolve } from 'node:path';
import { CatalogueView } from '../mcp/catalogue-view.js';
import { createMcpHttpHandler } from '../mcp/http.js';
import { followRepository } from '../serve/follow.js';
import { buildServedState, type ServedState, ServedStateHolder } from '../serve/served-state.js';
import { createRegistryServer } from '../serve/server.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { repoRoot, resolveCommit } from '../sources/git.js';
import type { Container } from './container.js';
import { memoLoad, openHistory } from './history.js';
import { usageError } from './usage-error.js';

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
  /** `--poll <seconds>`: how often to look for a new release or catalogue edit; 0 never. */
  poll?: string;
}

/**
 * `eventry serve`: a read-only Confluent Schema Registry over the catalogue's release history. Prints
 * `eventry: serving http://H:P` once it accepts connections; SIGTERM or SIGINT stop it gracefully
 * (no new connections, requests in flight finish), exit 0.
 */
export async function runServe(options: ServeCommandOptions, io: Container): Promise<ExitStatus> {
  const { cwd } = io;
  const port = Number(options.port ?? '8081');
  if (!/^[0-9]{1,5}$/.test(options.port ?? '8081') || port > 65535) {
    return usageError(
      io,
      'serve',
      `--port ${options.port} is not a port number (0-65535; 0 picks a free one).`,
    );
  }
  const poll = Number(options.poll ?? '2');
  if (!/^[0-9]+(\.[0-9]+)?$/.test(options.poll ?? '2') || poll > 86_400) {
    return usageError(
      io,
      'serve',
      `--poll ${options.poll} is not a number of seconds (0-86400; 0 never looks again).`,
    );
  }
  const host = options.host ?? '127.0.0.1';
  const catalogue = options.catalogue ?? 'catalogue';
  const history = openHistory(io, 'serve', catalogue, options.cache !== false);
  if (typeof history === 'number') return history;
  const holder = new ServedStateHolder(buildServedState(history, resolveCommit(io, 'HEAD')));
  const follower =
    poll > 0
      ? followRepository(
          holder,
          {
            cwd,
            env: io.env,
            catalogue,
            accelerator: memoLoad,
            ...(options.cache !== false
              ? { cacheDir: join(repoRoot(io) ?? cwd, '.eventry', 'registry') }
              : {}),
          },
          poll * 1000,
          {
            reloaded: ({ release }) =>
              io.stderr.write(
                `eventry serve: reloaded: ${release.release ? `release ${release.release.version} (${release.release.commit.slice(0, 7)})` : 'no release yet'}, catalogue version ${release.catalogueVersion}, ${release.unreleased} unreleased version(s).\n`,
              ),
            failed: (message, cause) =>
              io.stderr.write(
                cause === 'git'
                  ? `eventry serve: git cannot be read; still serving the previous state: ${message}\n`
                  : `eventry serve: the changed catalogue does not load; still serving the previous state:\n${message}\n`,
              ),
          },
        )
      : undefined;
  // The MCP endpoint answers from the state being served: a view per state, made on first use.
  const packagesDir = resolve(cwd, options.packages ?? 'packages');
  const views = new WeakMap<ServedState, CatalogueView>();
  const viewOf = (): CatalogueView => {
    const served = holder.current;
    let view = views.get(served);
    if (!view) {
      view = new CatalogueView({
        catalogue: served.catalogue,
        packagesDir,
        registry: served.state,
        catalogueDir: resolve(cwd, catalogue),
      });
      views.set(served, view);
    }
    return view;
  };
  const server = createRegistryServer(holder, {
    title: history.current.config.title,
    docsDir: resolve(cwd, options.docs ?? join('.eventry', 'site')),
    mcp: createMcpHttpHandler(viewOf, io.stderr),
    ...(options.accessLog ? { accessLog: (line: string) => io.stdout.write(`${line}\n`) } : {}),
  });
  const listening = await new Promise<Error | undefined>((done) => {
    server.once('error', done);
    server.listen(port, host, () => done(undefined));
  });
  if (listening) {
    follower?.stop();
    io.stderr.write(`eventry serve: cannot listen on ${host}:${port}: ${listening.message}\n`);
    return EXIT.problems;
  }
  const address = server.address();
  const shown = typeof address === 'object' && address ? address.port : port;
  const hostShown = host.includes(':') ? `[${host}]` : host;
  io.stdout.write(`eventry: serving http://${hostShown}:${shown}\n`);
  await new Promise<void>((done) => {
    const stop = () => {
      follower?.stop();
      for (const stopListening of handlers) stopListening();
      server.close(() => done());
      server.closeIdleConnections();
      // Requests in flight get the request timeout to finish; then the sockets are cut.
      setTimeout(() => server.closeAllConnections(), 10_000).unref();
    };
    const handlers = [io.onSignal('SIGTERM', stop), io.onSignal('SIGINT', stop)];
  });
  return EXIT.ok;
}
