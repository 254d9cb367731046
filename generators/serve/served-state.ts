import type { Catalogue } from '../model.js';
import type { History } from '../schema-registry/history.js';
import { type SchemaEntry, SchemaRegistryState, type SubjectVersion } from '../schema-registry/registry.js';

/** Which release a registry serves: what its health endpoint reports. */
export interface ServedRelease {
  /** The newest release in the history (its commit and catalogue version); null before the first one. */
  release: { commit: string; version: string } | null;
  /** The commit checked out when the state was loaded (undefined outside git or before a first commit). */
  head?: string;
  /** The working catalogue's recorded version (what `latest` serves). */
  catalogueVersion: string;
  /** Subject versions that exist only in the working catalogue, not released yet. */
  unreleased: number;
  /** When this state was loaded (ISO 8601). */
  loadedAt: string;
}

/**
 * Everything one request reads, built whole before it is served: the registry state, the bodies of
 * the hot routes serialised from it, and the release it comes from. A reload builds a new one and
 * swaps the reference, so a request that took one sees it alone, never half of the next.
 */
export interface ServedState {
  state: SchemaRegistryState;
  /** The working catalogue of the history served (what the MCP endpoint answers from). */
  catalogue: Catalogue;
  /** Bodies of `GET /schemas/ids/{id}` and `GET /subjects/{s}/versions/{v|latest}`, by request path. */
  bodies: Map<string, Buffer>;
  release: ServedRelease;
  /**
   * Set when a reload after this state failed (git unreadable, a catalogue that does not load): the
   * state is still right for what it was loaded from, and `/healthz` says `degraded` with why and since
   * when, until a reload succeeds.
   */
  degraded?: { reason: string; since: string };
}

/** Holds the state being served; `swap` replaces it in one assignment. */
export class ServedStateHolder {
  constructor(public current: ServedState) {}

  /** Serves `next` from now on; requests already running finish with the state they took. */
  swap(next: ServedState): void {
    this.current = next;
  }
}

/** The media type's schema type: JSON Schema is the only one served. */
export const JSON_TYPE = 'JSON';

/**
 * Builds what requests read from a history (`head`: the commit it was loaded at; `state`: the registry
 * state of that history when it is already made).
 */
export function buildServedState(
  history: History,
  head?: string,
  state = new SchemaRegistryState(history),
): ServedState {
  const lastRelease = history.points.findLast((point) => point.commit !== undefined);
  return {
    state,
    catalogue: history.current,
    bodies: precomputedBodies(state),
    release: {
      release: lastRelease?.commit ? { commit: lastRelease.commit, version: lastRelease.version } : null,
      ...(head ? { head } : {}),
      catalogueVersion: history.current.config.version,
      unreleased: state.historyOrder().filter((version) => !version.released).length,
      loadedAt: new Date().toISOString(),
    },
  };
}

/** The body of a subject version, under the subject name the client asked for (`<key>-value` too). */
export function versionBody(version: SubjectVersion, subject = version.subject): Record<string, unknown> {
  return {
    subject,
    version: version.version,
    id: version.id,
    schemaType: JSON_TYPE,
    schema: version.schema,
    ...version.contract,
  };
}

/** The body of `GET /schemas/ids/{id}`: the text, and its rules and metadata when it has them. */
export function schemaBody(entry: SchemaEntry): Record<string, unknown> {
  return { schema: entry.schema, schemaType: JSON_TYPE, ...entry.contract };
}

/** Compact JSON as bytes. */
export const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

function precomputedBodies(state: SchemaRegistryState): Map<string, Buffer> {
  const bodies = new Map<string, Buffer>();
  for (const entry of state.schemas.values()) {
    bodies.set(`/schemas/ids/${entry.id}`, json(schemaBody(entry)));
  }
  for (const [subject, versions] of state.subjects) {
    const path = `/subjects/${encodeURIComponent(subject)}/versions`;
    bodies.set(`${path}/latest`, json(versionBody(versions.at(-1)!)));
    for (const version of versions) bodies.set(`${path}/${version.version}`, json(versionBody(version)));
  }
  return bodies;
}
