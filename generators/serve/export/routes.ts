import type { SchemaRegistryState } from '../../schema-registry/registry.js';

/**
 * The routes `eventry registry export` writes: every read route Kafka clients use, each as the path a
 * client requests (segments percent-encoded as `encodeURIComponent` does, which both JavaScript
 * clients and the JVM clients use) with how long a cache may keep it. Routes that take a query, a body
 * or a time (`/schemas?latestOnly=`, `/subjects/{s}/metadata?key=`, `POST /subjects/{s}`,
 * `/compatibility/...`, `/healthz`) are not here: a static host cannot answer them (see
 * generators/schema-registry/README.md, "A static registry").
 */

/** How long a cache may keep a route: forever (a body that can never change) or briefly. */
export type CacheClass = 'immutable' | 'short';

/** One route of the export. */
export interface ExportedRoute {
  /** Decoded segments: `['subjects', 'account.created-v1', 'versions', '1']`. */
  segments: string[];
  cache: CacheClass;
}

/** The path a client requests for a route: `/` and the segments, each percent-encoded. */
export const requestPath = (route: ExportedRoute): string =>
  `/${route.segments.map((segment) => encodeURIComponent(segment)).join('/')}`;

/**
 * Every exported route of a registry state, in a stable order. A subject is exported under its own
 * name and under `<name>-value` (Confluent's TopicNameStrategy), as `serve` answers both, unless that
 * name is a subject of its own.
 */
export function exportedRoutes(state: SchemaRegistryState): ExportedRoute[] {
  const routes: ExportedRoute[] = [];
  const add = (cache: CacheClass, ...segments: string[]) => routes.push({ segments, cache });
  add('short', 'subjects');
  add('short', 'config');
  add('short', 'mode');
  add('short', 'contexts');
  add('short', 'schemas', 'types');
  for (const subject of [...state.subjects.keys()].sort()) {
    const names = [subject, `${subject}-value`].filter((name) => state.resolveSubject(name) === subject);
    for (const name of names) subjectRoutes(state, subject, name, add);
  }
  for (const id of [...state.schemas.keys()].sort((a, b) => a - b)) {
    // An id always names the same text; which subject versions use it grows with the history.
    add('immutable', 'schemas', 'ids', `${id}`);
    add('immutable', 'schemas', 'ids', `${id}`, 'schema');
    add('short', 'schemas', 'ids', `${id}`, 'versions');
    add('short', 'schemas', 'ids', `${id}`, 'subjects');
  }
  return routes;
}

/** The routes of one subject under one of its names. */
function subjectRoutes(
  state: SchemaRegistryState,
  subject: string,
  name: string,
  add: (cache: CacheClass, ...segments: string[]) => void,
): void {
  add('short', 'subjects', name, 'versions');
  add('short', 'config', name);
  add('short', 'mode', name);
  const versions = state.subjects.get(subject)!;
  // A released version is fixed for good; one only in the working catalogue changes until released. A
  // type subject's version is an event version, whose text or rules a later release may change.
  const numbered = versions.map((version) => ({
    spec: `${version.version}`,
    cache: version.released && version.eventKey === undefined ? ('immutable' as const) : ('short' as const),
  }));
  for (const { spec, cache } of [...numbered, { spec: 'latest', cache: 'short' as const }]) {
    add(cache, 'subjects', name, 'versions', spec);
    add(cache, 'subjects', name, 'versions', spec, 'schema');
    add('short', 'subjects', name, 'versions', spec, 'referencedby');
  }
}
