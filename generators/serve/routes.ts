import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type CandidateJob,
  type CandidateVerdict,
  candidateJob,
  isTransitive,
} from '../schema-registry/compatibility.js';
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
} from './errors.js';
import { notFound, parseRequestPath, pickVersion, readRoute } from './read-routes.js';
import { hasBody, readBody, readSchemaRequest } from './request-body.js';
import { send, sendJson } from './send.js';
import { JSON_TYPE, type ServedState, versionBody } from './served-state.js';

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
  const path = parseRequestPath(req.url ?? '/');
  const [head, ...rest] = path.parts;
  // Every body is read (bounded) before answering, whatever the route: see `hasBody`.
  const body = hasBody(req) ? await readBody(req, limits.maxBody, limits.bodyDeadline) : '';
  // A portal request with a body (a PUT, a POST...) gets the portal's answer once the body is read.
  if (isDocsPath(req.url)) return answerDocs(req, res, limits.docsDir, limits.log);
  refuseWrites(method, head, rest);
  if (method === 'GET' || method === 'HEAD') {
    if (head === '') return index(req, res, state, title);
    const answer = readRoute(served, path);
    return send(res, answer.status, answer.body, answer.type);
  }
  if (method === 'POST' && head === 'subjects') return lookUp(body, res, state, rest[0]!);
  if (method === 'POST' && head === 'compatibility')
    return compatibility(body, res, state, rest, path.query, limits.judge);
  throw new SchemaRegistryError(405, 405, `HTTP 405 Method Not Allowed: ${method}`);
}

/** Every write is refused (42205) on the registry's routes, 404 elsewhere; look-up and compatibility read. */
function refuseWrites(method: string, head: string | undefined, rest: readonly string[]): void {
  if (method === 'DELETE' || method === 'PUT' || (method === 'POST' && head !== 'compatibility')) {
    // Look-up (`POST /subjects/{s}`) is the one POST that reads.
    if (!(method === 'POST' && head === 'subjects' && rest.length === 1)) {
      if (head === 'subjects' || head === 'config' || head === 'mode' || head === 'schemas') throw readOnly();
      throw notFound();
    }
  }
}

/** `POST /subjects/{s}`: the version of that subject whose schema is the one sent (latest first). */
function lookUp(body: string, res: ServerResponse, state: SchemaRegistryState, name: string) {
  const request = readSchemaRequest(body);
  const subject = state.resolveSubject(name);
  if (!subject) throw subjectNotFound(name);
  const text = request.schemaType === JSON_TYPE ? canonicalCandidate(request.schema) : undefined;
  const versions = [...state.subjects.get(subject)!].reverse();
  // The version with the text and the data contract sent (none sent: one without, else the latest with
  // the text); a contract no version has is not found (docs/decisions/0145).
  const withText = text === undefined ? [] : versions.filter((v) => v.schema === text);
  const found =
    withText.find((v) => v.contractText === request.contract) ??
    (request.contract === undefined ? withText[0] : undefined) ??
    (text === undefined ? undefined : typeVersionOf(state, versions, text));
  if (found) return sendJson(res, 200, versionBody(found, name));
  // A text an earlier eventry served (with `$id`) is still that version, under the id it had then.
  const earlier = versions.find((v) => v.firstGeneration?.schema === text);
  if (!earlier?.firstGeneration) throw schemaNotFound(`in subject '${subject}'`);
  return sendJson(res, 200, { ...versionBody(earlier, name), ...earlier.firstGeneration });
}

/**
 * In a type subject, the version of the event whose per-version subject has (or had) `text`, with
 * whatever contract: a message written with that event's own id is that version of its type, which is
 * where a Confluent client starts its migrations from (docs/decisions/0170).
 */
function typeVersionOf(
  state: SchemaRegistryState,
  versions: readonly SubjectVersion[],
  text: string,
): SubjectVersion | undefined {
  return versions.find((version) => {
    const own = version.eventKey === undefined ? undefined : state.subjects.get(version.eventKey);
    return own?.some((earlier) => earlier.schema === text || earlier.firstGeneration?.schema === text);
  });
}

/**
 * In a type subject (`compatibilityGroup: major_version`), the versions a candidate is judged against:
 * those of the major version its `metadata.properties.major_version` names (the latest of them, or all
 * for a transitive level; none for a new major version). Undefined elsewhere, or without one named.
 */
function sameMajor(
  state: SchemaRegistryState,
  subject: string,
  contract: string | undefined,
): SubjectVersion[] | undefined {
  if (!state.isTypeSubject(subject) || contract === undefined) return undefined;
  const major = (JSON.parse(contract) as { metadata?: { properties?: Record<string, unknown> } }).metadata
    ?.properties?.major_version;
  if (major === undefined) return undefined;
  const group = state.subjects
    .get(subject)!
    .filter((version) => version.contract?.metadata.properties.major_version === String(major));
  return isTransitive(state.levelOf(subject)) ? group : group.slice(-1);
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
    rest.length === 4 && rest[3] !== 'latest'
      ? [pickVersion(subject, versions, rest[3]!)]
      : sameMajor(state, subject, request.contract);
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
