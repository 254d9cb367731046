import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { CatalogueView } from '../mcp/catalogue-view.js';
import { createMcpHttpHandler } from '../mcp/http.js';
import { type DrainOutcome, type DrainTiming, ReplicaLifecycle } from '../serve/drain.js';
import { followRepository } from '../serve/follow.js';
import { buildServedState, type ServedState, ServedStateHolder } from '../serve/served-state.js';
import { createRegistryServer } from '../serve/server.js';
import { loadTlsFiles } from '../serve/tls.js';
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
  /** `--tls-cert <file>` and `--tls-key <file>`: serve HTTPS with this PEM certificate and key. */
  tlsCert?: string;
  tlsKey?: string;
  /** `--drain-delay <seconds>`: after SIGTERM, /readyz 503 while still answering, before listening stops. */
  drainDelay?: string;
  /** `--drain-timeout <seconds>`: how long requests in flight get to finish once listening stops. */
  drainTimeout?: string;
}

/** The options checked: a usage error's message, or the numbers and files the server needs. */
interface ServeSettings {
  port: number;
  host: string;
  poll: number;
  drain: DrainTiming;
  tls?: { cert: string; key: string };
}

/** A number of seconds in [0, max] (a decimal point allowed), or undefined when `text` is not one. */
function seconds(text: string, max: number): number | undefined {
  const value = Number(text);
  return /^[0-9]+(\.[0-9]+)?$/.test(text) && value <= max ? value : undefined;
}

/** Checks the options of `eventry serve`; a string is the usage error to print. */
function settingsOf(options: ServeCommandOptions, cwd: string): ServeSettings | string {
  const portText = options.port ?? '8081';
  if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535)
    return `--port ${options.port} is not a port number (0-65535; 0 picks a free one).`;
  const poll = seconds(options.poll ?? '2', 86_400);
  if (poll === undefined)
    return `--poll ${options.poll} is not a number of seconds (0-86400; 0 never looks again).`;
  const delay = seconds(options.drainDelay ?? '0', 3_600);
  if (delay === undefined) return `--drain-delay ${options.drainDelay} is not a number of seconds (0-3600).`;
  const timeout = seconds(options.drainTimeout ?? '10', 3_600);
  if (timeout === undefined)
    return `--drain-timeout ${options.drainTimeout} is not a number of seconds (0-3600).`;
  const settings: ServeSettings = {
    port: Number(portText),
    host: options.host ?? '127.0.0.1',
    poll,
    drain: { delayMs: delay * 1000, timeoutMs: timeout * 1000 },
  };
  if (options.tlsCert === undefined && options.tlsKey === undefined) return settings;
  if (options.tlsCert === undefined || options.tlsKey === undefined)
    return `${options.tlsCert === undefined ? '--tls-key' : '--tls-cert'} needs ${options.tlsCert === undefined ? '--tls-cert' : '--tls-key'} too (HTTPS needs both the certificate and its key).`;
  const tls = loadTlsFiles(cwd, options.tlsCert, options.tlsKey);
  if (!tls.ok) return `${tls.flag}: ${tls.reason}.`;
  return { ...settings, tls: { cert: tls.cert, key: tls.key } };
}

/**
 * `eventry serve`: a read-only Confluent Schema Registry over the catalogue's release history. Prints
 * `eventry: serving http(s)://H:P` once it accepts connections. SIGTERM or SIGINT drain it (see
 * serve/drain.ts: /readyz 503, no new connections, requests in flight finish), then exit 0.
 */
export async function runServe(options: ServeCommandOptions, io: Container): Promise<ExitStatus> {
  const settings = settingsOf(options, io.cwd);
  if (typeof settings === 'string') return usageError(io, 'serve', settings);
  const catalogue = options.catalogue ?? 'catalogue';
  const history = openHistory(io, 'serve', catalogue, options.cache !== false);
  if (typeof history === 'number') return history;
  const holder = new ServedStateHolder(buildServedState(history, resolveCommit(io, 'HEAD')));
  const follower = settings.poll > 0 ? follow(holder, options, settings.poll, io) : undefined;
  const lifecycle = new ReplicaLifecycle();
  const server = createRegistryServer(holder, {
    title: history.current.config.title,
    docsDir: resolve(io.cwd, options.docs ?? join('.eventry', 'site')),
    mcp: createMcpHttpHandler(mcpViews(holder, options, io.cwd), io.stderr),
    log: (line) => io.stderr.write(`${line}\n`),
    lifecycle,
    ...(settings.tls ? { tls: settings.tls } : {}),
    ...(options.accessLog ? { accessLog: (line: string) => io.stdout.write(`${line}\n`) } : {}),
  });
  const { host, port } = settings;
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
  io.stdout.write(`eventry: serving ${settings.tls ? 'https' : 'http'}://${hostShown}:${shown}\n`);
  await drainOnSignal(server, lifecycle, settings.drain, io);
  follower?.stop();
  return EXIT.ok;
}

/** Waits for SIGTERM or SIGINT, then drains the server; a second signal cuts what is left at once. */
async function drainOnSignal(
  server: Server,
  lifecycle: ReplicaLifecycle,
  timing: DrainTiming,
  io: Container,
): Promise<void> {
  let handlers: (() => void)[] = [];
  const outcome = await new Promise<DrainOutcome>((done) => {
    const signalled = () => {
      void lifecycle.drain(server, timing).then(done);
    };
    handlers = [io.onSignal('SIGTERM', signalled), io.onSignal('SIGINT', signalled)];
  });
  for (const remove of handlers) remove();
  if (outcome.cut > 0)
    io.stderr.write(
      `eventry serve: ${outcome.cut} request(s) still unanswered were cut (--drain-timeout ${timing.timeoutMs / 1000} s, or a second signal).\n`,
    );
}

/** Follows the repository: a new release or catalogue edit is served after the next look. */
function follow(holder: ServedStateHolder, options: ServeCommandOptions, poll: number, io: Container) {
  const catalogue = options.catalogue ?? 'catalogue';
  return followRepository(
    holder,
    {
      cwd: io.cwd,
      env: io.env,
      catalogue,
      accelerator: memoLoad,
      ...(options.cache !== false ? { cacheDir: join(repoRoot(io) ?? io.cwd, '.eventry', 'registry') } : {}),
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
  );
}

/** The MCP endpoint answers from the state being served: a view per state, made on first use. */
function mcpViews(holder: ServedStateHolder, options: ServeCommandOptions, cwd: string): () => CatalogueView {
  const packagesDir = resolve(cwd, options.packages ?? 'packages');
  const catalogueDir = resolve(cwd, options.catalogue ?? 'catalogue');
  const views = new WeakMap<ServedState, CatalogueView>();
  return () => {
    const served = holder.current;
    let view = views.get(served);
    if (!view) {
      view = new CatalogueView({
        catalogue: served.catalogue,
        packagesDir,
        registry: served.state,
        catalogueDir,
      });
      views.set(served, view);
    }
    return view;
  };
}
