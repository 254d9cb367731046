import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CandidateJob, type CandidateVerdict, candidateJob } from '../schema-registry/compatibility.js';
import { CompatibilityTimeout } from '../schema-registry/compatibility-runner.js';
import type { SchemaRegistryState, SubjectVersion } from '../schema-registry/registry.js';
import { canonicalCandidate } from '../schema-registry/schema-text.js';
import { maskedPath } from './access-log.js';
import { isDocsPath, serveDocs } from './docs-route.js';
import {
  ERROR_CODES,
  invalidSchema,
  readOnly,
  SchemaRegistryError,
  schemaNotFound,
  schemaTooLarge,
  subjectNotFound,
  versionNotFound,
} from './errors.js';
import { hasBody, readBody, readSchemaRequest } from './request-body.js';
import { send, sendJson } from './send.js';
import { JSON_TYPE, type ServedState, versionBody } from './served-state.js';

const MAX_VERSION = 2 ** 31 - 1;

/** The docs route, with a last guard: whatever it meets, one request never takes the server down. */
export function answerDocs(
  req: IncomingMessage,
  res: ServerResponse,
  docsDir: string | undefined,
  log: (line: string) => void,
): void {
  try {
    serveDocs(req, res, docsDir);
  } catch (error) {
    log(`eventry serve: internal error on ${req.method} ${maskedPath(req.url ?? '')}: ${error}`);
    if (res.headersSent) res.destroy();
    else sendJson(res, 500, { error_code: ERROR_CODES.internal, message: 'Internal error.' });
  }
}

/** What `handle` needs beyond the state: the body limits and the docs folder. */
export interface RequestLimits {
  maxBody: number;
  /** When the body must have arrived (epoch ms). */
  bodyDeadline: number;
  docsDir: string | undefined;
  /** Runs a compatibility check (on a thread of its own: generators/schema-registry/compatibility-runner.ts). */
  judge: (job: CandidateJob) => Promise<CandidateVerdict>;
  /** Where the server's own errors go (the command's stderr). */
  log: (line: string) => void;
}

/** Answers a request the hot routes did not: reads its body (bounded), then routes it. */
export async function handle(
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
  if (isDocsPath(req.url)) return answerDocs(req, res, limits.docsDir, limits.log);

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
  if (method === 'POST' && head === 'compatibility')
    return compatibility(body, res, state, rest, query, limits.judge);
  throw new SchemaRegistryError(405, 405, `HTTP 405 Method Not Allowed: ${method}`);
}

/** `GET /healthz`: up, and which release it serves (a reload changes it). */
function health(served: ServedState): Record<string, unknown> {
  // Degraded is still 200: every answer is right for the state served, so reads may keep coming.
  return {
    status: served.degraded ? 'degraded' : 'ok',
    ...served.degraded,
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

async function compatibility(
  body: string,
  res: ServerResponse,
  state: SchemaRegistryState,
  rest: string[],
  query: URLSearchParams,
  judge: RequestLimits['judge'],
): Promise<void> {
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
  const verdict = await judge(candidateJob(state, subject, request.schema, against)).catch((error) => {
    throw error instanceof CompatibilityTimeout ? schemaTooLarge(error.message) : error;
  });
  if (!verdict.ok) throw verdict.tooLarge ? schemaTooLarge(verdict.error) : invalidSchema(verdict.error);
  const verbose = query.get('verbose') === 'true';
  return sendJson(res, 200, {
    is_compatible: verdict.compatible,
    ...(verbose ? { messages: verdict.messages } : {}),
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
