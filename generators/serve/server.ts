import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { checkCandidate } from '../schema-registry/compatibility.js';
import { SchemaRegistryState, type SubjectVersion } from '../schema-registry/registry.js';
import { canonicalCandidate, MAX_SCHEMA_DEPTH, nestsDeeperThan } from '../schema-registry/schema-text.js';
import { logAccess } from './access-log.js';
import { isDocsPath, serveDocs } from './docs-route.js';
import {
  ERROR_CODES,
  invalidSchema,
  readOnly,
  SchemaRegistryError,
  schemaNotFound,
  subjectNotFound,
  versionNotFound,
} from './errors.js';
import {
  buildServedState,
  JSON_TYPE,
  json,
  type ServedState,
  ServedStateHolder,
  versionBody,
} from './served-state.js';

/** The media type of every Confluent Schema Registry answer. */
export const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

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
}

/** How long the headers of a request may take to arrive, in ms. */
const HEADERS_TIMEOUT_MS = 10_000;

const MAX_VERSION = 2 ** 31 - 1;

/**
 * A Confluent Schema Registry compatible HTTP server over a registry state (see
 * generators/schema-registry/registry.ts), read-only. Every answer is JSON of the registry media type; every
 * failure is a Confluent error body, never a stack trace. The hot read routes (schema by id, latest
 * version) answer from bodies serialised once per state. Given a holder, it serves whatever state the
 * holder has when a request arrives (a reload swaps it): each request reads one state throughout.
 */
export function createRegistryServer(
  source: SchemaRegistryState | ServedStateHolder,
  options: RegistryServerOptions = {},
): Server {
  const holder =
    source instanceof SchemaRegistryState
      ? new ServedStateHolder(buildServedState(source.history, undefined, source))
      : source;
  const maxBody = options.maxBodyBytes ?? 1 << 20;
  const bodyTimeout = options.bodyTimeoutMs ?? 30_000;
  // Node's own request timeout is only a backstop behind the body timer of `readBody` (which answers
  // 408 at the exact limit); checked every second, so the headers limit holds too (docs/decisions/0065).
  const timeouts = {
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: HEADERS_TIMEOUT_MS + bodyTimeout + 1_000,
    connectionsCheckingInterval: 1_000,
    keepAliveTimeout: 5_000,
  };
  const server = createServer(timeouts, (req, res) => {
    const arrived = Date.now();
    // One state per request, taken once: a reload swapping the holder meanwhile changes nothing here.
    const served = holder.current;
    if (options.accessLog) logAccess(req, res, options.accessLog);
    if (options.mcp && (req.url === '/mcp' || req.url?.startsWith('/mcp?'))) {
      options.mcp(req, res).catch((error: unknown) => {
        process.stderr.write(`eventry serve: internal error on ${req.method} /mcp: ${error}\n`);
        if (!res.headersSent) sendJson(res, 500, { error_code: 50001, message: 'Internal error.' });
        else res.destroy();
      });
      return;
    }
    const fast = served.bodies;
    if (isDocsPath(req.url) && !hasBody(req)) {
      answerDocs(req, res, options.docsDir);
      return;
    }
    // A request with a body goes the slow way, which reads it first (an unread body breaks keep-alive).
    const body =
      req.method === 'GET' && req.url !== undefined && !hasBody(req) ? fast.get(req.url) : undefined;
    if (body) {
      send(res, 200, body);
      return;
    }
    const limits = { maxBody, bodyDeadline: arrived + bodyTimeout, docsDir: options.docsDir };
    handle(served, req, res, limits, options.title ?? 'eventry').catch((error: unknown) => {
      const known = error instanceof SchemaRegistryError;
      if (!known)
        process.stderr.write(`eventry serve: internal error on ${req.method} ${req.url}: ${error}\n`);
      const answer = known
        ? error
        : new SchemaRegistryError(
            500,
            ERROR_CODES.internal,
            'Internal error; the server log has the details.',
          );
      if (res.headersSent || !res.socket?.writable) {
        res.destroy();
        return;
      }
      // The rest of a body too large or too slow to read is never read: the connection cannot be reused.
      if (answer.status === 413 || answer.status === 408) res.setHeader('connection', 'close');
      sendJson(res, answer.status, { error_code: answer.code, message: answer.message });
    });
  });
  // Malformed HTTP or a timed-out request: a Confluent error body instead of Node's bare answer.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
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
  });
  // A proxy tunnel is not something this registry offers: say so instead of closing the socket.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const body = JSON.stringify({ error_code: 405, message: 'HTTP 405 Method Not Allowed: CONNECT' });
    socket.on('error', () => socket.destroy());
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\ncontent-type: ${CONTENT_TYPE}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}

/** The docs route, with a last guard: whatever it meets, one request never takes the server down. */
function answerDocs(req: IncomingMessage, res: ServerResponse, docsDir: string | undefined): void {
  try {
    serveDocs(req, res, docsDir);
  } catch (error) {
    process.stderr.write(`eventry serve: internal error on ${req.method} ${req.url}: ${error}\n`);
    if (res.headersSent) res.destroy();
    else sendJson(res, 500, { error_code: ERROR_CODES.internal, message: 'Internal error.' });
  }
}

function send(res: ServerResponse, status: number, body: Buffer, type = CONTENT_TYPE): void {
  res.writeHead(status, { 'content-type': type, 'content-length': body.length });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, json(value));
}

/** What `handle` needs beyond the state: the body limits and the docs folder. */
interface RequestLimits {
  maxBody: number;
  /** When the body must have arrived (epoch ms). */
  bodyDeadline: number;
  docsDir: string | undefined;
}

async function handle(
  served: ServedState,
  req: IncomingMessage,
  res: ServerResponse,
  limits: RequestLimits,
  title: string,
): Promise<void> {
  const state = served.state;
  const method = req.method ?? 'GET';
  let url: URL;
  let parts: string[];
  try {
    url = new URL(req.url ?? '/', 'http://registry.invalid');
    parts = url.pathname
      .split('/')
      .slice(1)
      .map((part) => decodeURIComponent(part));
  } catch {
    throw new SchemaRegistryError(400, 400, 'The request path is not a valid URL (bad percent-encoding).');
  }
  if (parts.at(-1) === '' && parts.length > 1) parts.pop();
  const query = url.searchParams;
  const [head, ...rest] = parts;
  // Every body is read (bounded) before answering, whatever the route: see `hasBody`.
  const body = hasBody(req) ? await readBody(req, limits.maxBody, limits.bodyDeadline) : '';
  // A portal request with a body (a PUT, a POST...) gets the portal's answer once the body is read.
  if (isDocsPath(req.url)) return answerDocs(req, res, limits.docsDir);

  if (method === 'DELETE' || method === 'PUT' || (method === 'POST' && head !== 'compatibility')) {
    // Look-up (`POST /subjects/{s}`) is the one POST that reads.
    if (!(method === 'POST' && head === 'subjects' && rest.length === 1)) {
      if (head === 'subjects' || head === 'config' || head === 'mode' || head === 'schemas') throw readOnly();
      throw notFound();
    }
  }

  if (method === 'GET' || method === 'HEAD') {
    switch (head) {
      case '':
        return index(req, res, state, title);
      case 'healthz':
      case 'readyz':
        return sendJson(res, 200, health(served));
      case 'subjects':
        return getSubjects(res, state, rest, query);
      case 'schemas':
        return getSchemas(res, state, rest, query);
      case 'config':
        if (rest.length === 0) {
          return sendJson(res, 200, {
            compatibilityLevel: state.compatibility.level,
            compatibilityPolicy: state.compatibility.policy,
          });
        }
        if (rest.length === 1) {
          const subject = state.resolveSubject(rest[0]!);
          if (!subject) throw subjectNotFound(rest[0]!);
          return sendJson(res, 200, {
            compatibilityLevel: state.levelOf(subject),
            compatibilityPolicy: state.compatibility.policy,
          });
        }
        throw notFound();
      case 'mode':
        if (rest.length === 0) return sendJson(res, 200, { mode: 'READONLY' });
        if (rest.length === 1) {
          if (!state.resolveSubject(rest[0]!)) throw subjectNotFound(rest[0]!);
          return sendJson(res, 200, { mode: 'READONLY' });
        }
        throw notFound();
      case 'contexts':
        if (rest.length === 0) return sendJson(res, 200, ['.']);
        throw notFound();
      default:
        throw notFound();
    }
  }

  if (method === 'POST' && head === 'subjects') return lookUp(body, res, state, rest[0]!);
  if (method === 'POST' && head === 'compatibility') return compatibility(body, res, state, rest, query);
  throw new SchemaRegistryError(405, 405, `HTTP 405 Method Not Allowed: ${method}`);
}

/** `GET /healthz`: up, and which release it serves (a reload changes it). */
function health(served: ServedState): Record<string, unknown> {
  return {
    status: 'ok',
    ...served.release,
    subjects: served.state.subjects.size,
    schemas: [...served.state.schemas.values()].filter((entry) => !entry.retired).length,
  };
}

const notFound = (): SchemaRegistryError => new SchemaRegistryError(404, 404, 'HTTP 404 Not Found');

function getSubjects(
  res: ServerResponse,
  state: SchemaRegistryState,
  rest: string[],
  query: URLSearchParams,
) {
  if (rest.length === 0) {
    const prefix = query.get('subjectPrefix') ?? '';
    const names = [...state.subjects.keys()].filter((name) => name.startsWith(prefix)).sort();
    return sendJson(res, 200, names);
  }
  const subject = state.resolveSubject(rest[0]!);
  if (!subject) throw subjectNotFound(rest[0]!);
  const versions = state.subjects.get(subject)!;
  if (rest.length === 2 && rest[1] === 'versions') {
    return sendJson(
      res,
      200,
      versions.map((version) => version.version),
    );
  }
  if (rest.length === 2 && rest[1] === 'metadata') {
    // No version carries metadata: only a request without metadata filters matches (the latest).
    if ([...query.keys()].some((name) => name === 'key' || name === 'value')) {
      throw schemaNotFound(`with the requested metadata in subject '${subject}'`);
    }
    return sendJson(res, 200, versionBody(versions.at(-1)!, rest[0]));
  }
  if ((rest.length === 3 || rest.length === 4) && rest[1] === 'versions') {
    const version = pickVersion(subject, versions, rest[2]!);
    if (rest.length === 3) return sendJson(res, 200, versionBody(version, rest[0]));
    if (rest[3] === 'schema') return send(res, 200, Buffer.from(version.schema));
    if (rest[3] === 'referencedby') return sendJson(res, 200, []);
  }
  throw notFound();
}

function getSchemas(res: ServerResponse, state: SchemaRegistryState, rest: string[], query: URLSearchParams) {
  if (rest.length === 0) {
    const latestOnly = query.get('latestOnly') === 'true';
    const prefix = query.get('subjectPrefix') ?? '';
    const all = [...state.subjects.entries()]
      .filter(([subject]) => subject.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([, versions]) => (latestOnly ? [versions.at(-1)!] : versions));
    return sendJson(
      res,
      200,
      all.map((version) => versionBody(version)),
    );
  }
  if (rest.length === 1 && rest[0] === 'types') return sendJson(res, 200, [JSON_TYPE]);
  if (rest[0] === 'ids' && (rest.length === 2 || rest.length === 3)) {
    const raw = rest[1]!;
    const entry = /^[0-9]{1,10}$/.test(raw) ? state.schemas.get(Number(raw)) : undefined;
    if (!entry) throw schemaNotFound(`${raw}`);
    if (rest.length === 2) return sendJson(res, 200, { schema: entry.schema, schemaType: JSON_TYPE });
    if (rest[2] === 'schema') return send(res, 200, Buffer.from(entry.schema));
    if (rest[2] === 'subjects') return sendJson(res, 200, [...new Set(entry.uses.map((use) => use.subject))]);
    if (rest[2] === 'versions') {
      return sendJson(
        res,
        200,
        entry.uses.map((use) => ({ subject: use.subject, version: use.version })),
      );
    }
  }
  throw notFound();
}

/** `latest`, `-1`, or a version number in [1, 2^31-1]; anything else is 42202. */
function pickVersion(subject: string, versions: readonly SubjectVersion[], spec: string): SubjectVersion {
  if (spec === 'latest' || spec === '-1') return versions.at(-1)!;
  if (!/^[0-9]{1,10}$/.test(spec) || Number(spec) < 1 || Number(spec) > MAX_VERSION) {
    throw new SchemaRegistryError(
      422,
      ERROR_CODES.invalidVersion,
      `The specified version '${spec}' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest".`,
    );
  }
  const found = versions[Number(spec) - 1];
  if (!found) throw versionNotFound(subject, spec);
  return found;
}

/** `POST /subjects/{s}`: the version of that subject whose schema is the one sent (latest first). */
function lookUp(body: string, res: ServerResponse, state: SchemaRegistryState, name: string) {
  const request = readSchemaRequest(body);
  const subject = state.resolveSubject(name);
  if (!subject) throw subjectNotFound(name);
  const text = request.schemaType === JSON_TYPE ? canonicalCandidate(request.schema) : undefined;
  const versions = state.subjects.get(subject)!;
  const found = text === undefined ? undefined : [...versions].reverse().find((v) => v.schema === text);
  if (found) return sendJson(res, 200, versionBody(found, name));
  // A text an earlier eventry served (with `$id`) is still that version, under the id it had then.
  const earlier = [...versions].reverse().find((v) => v.firstGeneration?.schema === text);
  if (!earlier?.firstGeneration) throw schemaNotFound(`in subject '${subject}'`);
  return sendJson(res, 200, { ...versionBody(earlier, name), ...earlier.firstGeneration });
}

function compatibility(
  body: string,
  res: ServerResponse,
  state: SchemaRegistryState,
  rest: string[],
  query: URLSearchParams,
) {
  // /compatibility/subjects/{s}/versions[/{v}]
  if (rest[0] !== 'subjects' || rest[2] !== 'versions' || rest.length < 3 || rest.length > 4) {
    throw notFound();
  }
  const request = readSchemaRequest(body);
  const subject = state.resolveSubject(rest[1]!);
  if (!subject) throw subjectNotFound(rest[1]!);
  const versions = state.subjects.get(subject)!;
  // Against one version when one is named; `latest` (or none) means what the level says.
  const against =
    rest.length === 4 && rest[3] !== 'latest' ? [pickVersion(subject, versions, rest[3]!)] : undefined;
  if (request.schemaType !== JSON_TYPE) {
    throw invalidSchema(`this registry holds JSON Schema only; the candidate is ${request.schemaType}.`);
  }
  const verdict = checkCandidate(state, subject, request.schema, against);
  if ('error' in verdict) throw invalidSchema(verdict.error);
  const verbose = query.get('verbose') === 'true';
  return sendJson(res, 200, {
    is_compatible: verdict.compatible,
    ...(verbose ? { messages: verdict.messages } : {}),
  });
}

interface SchemaRequest {
  schema: string;
  schemaType: string;
}

/** A `{schema, schemaType?}` body; a missing schemaType means AVRO, as in Confluent. */
function readSchemaRequest(text: string): SchemaRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new SchemaRegistryError(400, 400, 'The request body is not JSON.');
  }
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (typeof record.schema !== 'string') {
    throw invalidSchema(
      'the request body has no `schema` string (send {"schemaType": "JSON", "schema": "..."}).',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(record.schema);
  } catch {
    parsed = undefined; // judged by each route: not found for a look-up, invalid for a check
  }
  if (nestsDeeperThan(parsed, MAX_SCHEMA_DEPTH)) {
    throw invalidSchema(`the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels.`);
  }
  const schemaType = record.schemaType === undefined ? 'AVRO' : record.schemaType;
  if (typeof schemaType !== 'string') throw invalidSchema('`schemaType` is not a string.');
  return { schema: record.schema, schemaType };
}

/** Whether the request carries a body (a length above zero, or chunked). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** The body as text: at most `max` bytes, all of it arrived by `deadline` (else 413, 408). */
function readBody(req: IncomingMessage, max: number, deadline: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (error: SchemaRegistryError) => {
      if (failed) return;
      failed = true;
      clearTimeout(timer);
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new SchemaRegistryError(
            408,
            408,
            'The request body took too long to arrive; send it whole, then wait for the answer.',
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > max)
        fail(new SchemaRegistryError(413, 413, `The request body is larger than ${max} bytes.`));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (failed) return;
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => {
      fail(new SchemaRegistryError(400, 400, `The request body could not be read: ${error.message}`));
    });
    req.on('close', () => clearTimeout(timer));
  });
}

function index(req: IncomingMessage, res: ServerResponse, state: SchemaRegistryState, title: string): void {
  if (!(req.headers.accept ?? '').includes('text/html')) {
    sendJson(res, 200, {});
    return;
  }
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}: schema registry</title></head>
<body><h1>${escapeHtml(title)}</h1>
<p>A read-only Confluent Schema Registry API over the eventry catalogue: ${state.subjects.size} subjects, ${state.subjectVersionCount()} subject versions.</p>
<ul><li><a href="/subjects">/subjects</a></li><li><a href="/schemas?latestOnly=true">/schemas?latestOnly=true</a></li><li><a href="/config">/config</a></li><li><a href="/healthz">/healthz</a></li></ul>
<p>The documentation portal: <a href="/docs/">/docs/</a>.</p>
</body></html>
`;
  send(res, 200, Buffer.from(page), 'text/html; charset=utf-8');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
