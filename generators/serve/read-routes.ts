import type { SchemaRegistryState, SubjectVersion } from '../schema-registry/registry.js';
import {
  ERROR_CODES,
  SchemaRegistryError,
  schemaNotFound,
  subjectNotFound,
  versionNotFound,
} from './errors.js';
import { CONTENT_TYPE } from './send.js';
import { JSON_TYPE, json, type ServedState, schemaBody, versionBody } from './served-state.js';

/**
 * The read routes of the registry API (every `GET` but the index page and the docs portal), as a pure
 * function of the served state and the request path: what `eventry serve` answers and what
 * `eventry registry export` writes as files (generators/serve/export/), so the two cannot differ.
 */

/** A read route's answer: the status, the body bytes and their media type. */
export interface ReadAnswer {
  status: number;
  body: Buffer;
  type: string;
}

/** A request path split into decoded segments (a trailing `/` dropped) and its query. */
export interface RequestPath {
  parts: string[];
  query: URLSearchParams;
}

const MAX_VERSION = 2 ** 31 - 1;

/** Splits a request target (`/subjects/a%2Bb/versions?x=1`); bad percent-encoding is a 400. */
export function parseRequestPath(target: string): RequestPath {
  try {
    const url = new URL(target, 'http://registry.invalid');
    const parts = url.pathname
      .split('/')
      .slice(1)
      .map((part) => decodeURIComponent(part));
    if (parts.at(-1) === '' && parts.length > 1) parts.pop();
    return { parts, query: url.searchParams };
  } catch {
    throw new SchemaRegistryError(400, 400, 'The request path is not a valid URL (bad percent-encoding).');
  }
}

/** `GET <target>`: the answer, or a SchemaRegistryError (404 40401, 422 42202...) to answer instead. */
export function answerRead(served: ServedState, target: string): ReadAnswer {
  return readRoute(served, parseRequestPath(target));
}

/** The answer of a parsed read request (see `answerRead`). */
export function readRoute(served: ServedState, { parts, query }: RequestPath): ReadAnswer {
  const state = served.state;
  const [head, ...rest] = parts;
  switch (head) {
    case 'healthz':
    case 'readyz':
      return ok(health(served));
    case 'subjects':
      return getSubjects(state, rest, query);
    case 'schemas':
      return getSchemas(state, rest, query);
    case 'config': {
      if (rest.length > 1) throw notFound();
      const subject = rest.length === 0 ? undefined : subjectOf(state, rest);
      return ok({
        compatibilityLevel: subject === undefined ? state.compatibility.level : state.levelOf(subject),
        compatibilityPolicy: state.compatibility.policy,
        // A type subject's versions are judged within their major version (docs/decisions/0170).
        ...(subject !== undefined && state.isTypeSubject(subject)
          ? { compatibilityGroup: 'major_version' }
          : {}),
      });
    }
    case 'mode':
      if (rest.length > 1) throw notFound();
      if (rest.length === 1) subjectOf(state, rest);
      return ok({ mode: 'READONLY' });
    case 'contexts':
      if (rest.length === 0) return ok(['.']);
      throw notFound();
    default:
      throw notFound();
  }
}

/** 404 with the generic body. */
export const notFound = (): SchemaRegistryError => new SchemaRegistryError(404, 404, 'HTTP 404 Not Found');

/** The subject the first segment names (an event key, or `<key>-value`); 40401 when none. */
function subjectOf(state: SchemaRegistryState, rest: readonly string[]): string {
  const subject = state.resolveSubject(rest[0]!);
  if (!subject) throw subjectNotFound(rest[0]!);
  return subject;
}

const ok = (value: unknown): ReadAnswer => ({ status: 200, body: json(value), type: CONTENT_TYPE });
const raw = (text: string): ReadAnswer => ({ status: 200, body: Buffer.from(text), type: CONTENT_TYPE });

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

function getSubjects(state: SchemaRegistryState, rest: string[], query: URLSearchParams): ReadAnswer {
  if (rest.length === 0) {
    const prefix = query.get('subjectPrefix') ?? '';
    return ok([...state.subjects.keys()].filter((name) => name.startsWith(prefix)).sort());
  }
  const subject = subjectOf(state, rest);
  const versions = state.subjects.get(subject)!;
  if (rest.length === 2 && rest[1] === 'versions') return ok(versions.map((version) => version.version));
  if (rest.length === 2 && rest[1] === 'metadata') {
    // The latest version whose metadata properties have every `key=...&value=...` pair asked for; only
    // versions with rules carry metadata (docs/decisions/0145), so without filters it is the latest.
    const keys = query.getAll('key');
    const values = query.getAll('value');
    const found = [...versions]
      .reverse()
      .find(
        (version) =>
          keys.length === values.length &&
          keys.every((key, index) => version.contract?.metadata.properties[key] === values[index]),
      );
    if (!found) throw schemaNotFound(`with the requested metadata in subject '${subject}'`);
    return ok(versionBody(found, rest[0]));
  }
  if ((rest.length === 3 || rest.length === 4) && rest[1] === 'versions') {
    const version = pickVersion(subject, versions, rest[2]!);
    if (rest.length === 3) return ok(versionBody(version, rest[0]));
    if (rest[3] === 'schema') return raw(version.schema);
    if (rest[3] === 'referencedby') return ok([]);
  }
  throw notFound();
}

function getSchemas(state: SchemaRegistryState, rest: string[], query: URLSearchParams): ReadAnswer {
  if (rest.length === 0) {
    const latestOnly = query.get('latestOnly') === 'true';
    const prefix = query.get('subjectPrefix') ?? '';
    const all = [...state.subjects.entries()]
      .filter(([subject]) => subject.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([, versions]) => (latestOnly ? [versions.at(-1)!] : versions));
    return ok(all.map((version) => versionBody(version)));
  }
  if (rest.length === 1 && rest[0] === 'types') return ok([JSON_TYPE]);
  if (rest[0] === 'ids' && (rest.length === 2 || rest.length === 3)) {
    const raw_ = rest[1]!;
    const entry = /^[0-9]{1,10}$/.test(raw_) ? state.schemas.get(Number(raw_)) : undefined;
    if (!entry) throw schemaNotFound(`${raw_}`);
    if (rest.length === 2) return ok(schemaBody(entry));
    if (rest[2] === 'schema') return raw(entry.schema);
    if (rest[2] === 'subjects') return ok([...new Set(entry.uses.map((use) => use.subject))]);
    if (rest[2] === 'versions')
      return ok(entry.uses.map((use) => ({ subject: use.subject, version: use.version })));
  }
  throw notFound();
}

/** `latest`, `-1`, or a version number in [1, 2^31-1]; anything else is 42202. */
export function pickVersion(
  subject: string,
  versions: readonly SubjectVersion[],
  spec: string,
): SubjectVersion {
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
