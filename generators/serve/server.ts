import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import type { CandidateJob, CandidateVerdict } from '../schema-registry/compatibility.js';
import { CompatibilityRunner } from '../schema-registry/compatibility-runner.js';
import { SchemaRegistryState } from '../schema-registry/registry.js';
import { logAccess, maskedPath } from './access-log.js';
import { isDocsPath } from './docs-route.js';
import type { ReplicaLifecycle } from './drain.js';
import { ERROR_CODES, SchemaRegistryError } from './errors.js';
import { hasBody } from './request-body.js';
import { answerDocs, handle } from './routes.js';
import { CONTENT_TYPE, send, sendJson } from './send.js';
import { buildServedState, ServedStateHolder } from './served-state.js';

/** Options of the registry server. */
export interface RegistryServerOptions {
  /** Where one JSON line per request goes (`--access-log`); no access log when undefined. */
  accessLog?: (line: string) => void;
  /** Largest request body accepted, in bytes (1 MiB by default): a schema is a few kilobytes. */
  maxBodyBytes?: number;
  /** Title shown on the index page. */
  title?: string;
  /** The docs portal folder (`eventry docs` output) served at `/docs/`. */
  docsDir?: string;
  /** The MCP endpoint's handler (generators/mcp/http.ts), answered at `/mcp`. */
  mcp?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** How long a request body may take to arrive once its headers have, in ms (30 s by default). */
  bodyTimeoutMs?: number;
  /** How long one compatibility check may run, in ms (20 s by default; see compatibility-runner.ts). */
  compatibilityTimeoutMs?: number;
  /** Where the server's own errors go, one line each (the command's stderr); nowhere when undefined. */
  log?: (line: string) => void;
  /** The PEM certificate (chain) and private key: the server speaks HTTPS only. */
  tls?: { cert: string; key: string };
  /** Readiness and graceful drain (drain.ts): `/readyz` is 503 once it drains. */
  lifecycle?: ReplicaLifecycle;
}

/** How long the headers of a request may take to arrive, in ms. */
const HEADERS_TIMEOUT_MS = 10_000;

/**
 * A Confluent Schema Registry compatible HTTP (or, given `tls`, HTTPS) server over a registry state
 * (see generators/schema-registry/registry.ts), read-only. Every answer is JSON of the registry media
 * type; every failure is a Confluent error body, never a stack trace. The hot read routes (schema by
 * id, latest version) answer from bodies serialised once per state. Given a holder, it serves whatever
 * state the holder has when a request arrives (a reload swaps it): each request reads one state throughout.
 */
export function createRegistryServer(
  source: SchemaRegistryState | ServedStateHolder,
  options: RegistryServerOptions = {},
): Server {
  const holder =
    source instanceof SchemaRegistryState
      ? new ServedStateHolder(buildServedState(source.history, undefined, source))
      : source;
  const bodyTimeout = options.bodyTimeoutMs ?? 30_000;
  // Node's own request timeout is only a backstop behind the body timer of `readBody` (which answers
  // 408 at the exact limit); checked every second, so the headers limit holds too (docs/decisions/0065).
  const timeouts = {
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: HEADERS_TIMEOUT_MS + bodyTimeout + 1_000,
    connectionsCheckingInterval: 1_000,
    keepAliveTimeout: 5_000,
  };
  const runner = new CompatibilityRunner(options.compatibilityTimeoutMs);
  const onRequest = requestHandler(holder, options, bodyTimeout, (job) => runner.judge(job));
  const server = options.tls
    ? (createHttpsServer({ ...timeouts, ...options.tls }, onRequest) as unknown as Server)
    : createServer(timeouts, onRequest);
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  server.on('close', () => runner.close());
  return server;
}

/** The request handler: readiness, the MCP endpoint, the docs, the hot routes, then `handle`. */
function requestHandler(
  holder: ServedStateHolder,
  options: RegistryServerOptions,
  bodyTimeout: number,
  judge: (job: CandidateJob) => Promise<CandidateVerdict>,
): (req: IncomingMessage, res: ServerResponse) => void {
  const log = options.log ?? (() => {});
  const internal = (req: IncomingMessage, error: unknown) =>
    log(`eventry serve: internal error on ${req.method} ${maskedPath(req.url ?? '')}: ${error}`);
  const maxBody = options.maxBodyBytes ?? 1 << 20;
  return (req, res) => {
    const arrived = Date.now();
    // One state per request, taken once: a reload swapping the holder meanwhile changes nothing here.
    const served = holder.current;
    options.lifecycle?.track(req, res);
    if (options.accessLog) logAccess(req, res, options.accessLog);
    if (options.lifecycle?.draining && isReadinessProbe(req)) {
      sendJson(res, 503, { status: 'draining', ...served.release });
      return;
    }
    if (options.mcp && (req.url === '/mcp' || req.url?.startsWith('/mcp?'))) {
      options.mcp(req, res).catch((error: unknown) => {
        internal(req, error);
        if (!res.headersSent)
          sendJson(res, 500, { error_code: ERROR_CODES.internal, message: 'Internal error.' });
        else res.destroy();
      });
      return;
    }
    if (isDocsPath(req.url) && !hasBody(req)) {
      answerDocs(req, res, options.docsDir, log);
      return;
    }
    // A request with a body goes the slow way, which reads it first (an unread body breaks keep-alive).
    const body =
      req.method === 'GET' && req.url !== undefined && !hasBody(req) ? served.bodies.get(req.url) : undefined;
    if (body) {
      send(res, 200, body);
      return;
    }
    const limits = { maxBody, bodyDeadline: arrived + bodyTimeout, docsDir: options.docsDir, judge, log };
    handle(served, req, res, limits, options.title ?? 'eventry').catch((error: unknown) =>
      answerFailure(req, res, error, internal),
    );
  };
}

/** `GET /readyz` (or HEAD) without a body: what a load balancer's readiness check sends. */
function isReadinessProbe(req: IncomingMessage): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    (req.url === '/readyz' || req.url?.startsWith('/readyz?') === true) &&
    !hasBody(req)
  );
}

/** A request that failed: its Confluent error body, or a 500 (logged) for what was not foreseen. */
function answerFailure(
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
  internal: (req: IncomingMessage, error: unknown) => void,
): void {
  const known = error instanceof SchemaRegistryError;
  if (!known) internal(req, error);
  const answer = known
    ? error
    : new SchemaRegistryError(500, ERROR_CODES.internal, 'Internal error; the server log has the details.');
  if (res.headersSent || !res.socket?.writable) {
    res.destroy();
    return;
  }
  // The rest of a body too large or too slow to read is never read: the connection cannot be reused.
  if (answer.status === 413 || answer.status === 408) res.setHeader('connection', 'close');
  sendJson(res, answer.status, { error_code: answer.code, message: answer.message });
}

/** Malformed HTTP or a timed-out request: a Confluent error body instead of Node's bare answer. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node itself: an answer unless one has begun (a broken chunked body fails mid-request).
  const inFlight = (socket as { _httpMessage?: ServerResponse })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const body = JSON.stringify(
    timedOut
      ? { error_code: 408, message: 'The request took too long to arrive.' }
      : { error_code: 400, message: 'Malformed HTTP request.' },
  );
  socket.end(
    `HTTP/1.1 ${timedOut ? '408 Request Timeout' : '400 Bad Request'}\r\ncontent-type: ${CONTENT_TYPE}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** A proxy tunnel is not something this registry offers: say so instead of closing the socket. */
function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  const body = JSON.stringify({ error_code: 405, message: 'HTTP 405 Method Not Allowed: CONNECT' });
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\ncontent-type: ${CONTENT_TYPE}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
