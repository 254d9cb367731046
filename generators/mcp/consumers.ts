import { fieldPathsOf, hasFieldPath, rangeMatches, relatePaths } from '../load/index.js';
import { suggest } from '../load/suggest.js';
import type { Catalogue, EventVersion, Ownership, Producer, Team } from '../model.js';
import { McpToolError } from './errors.js';

/** A team as the MCP server names it: id, name, and whom to ask. */
export interface TeamInfo {
  team: string;
  name: string;
  contact: string;
  codeOwner?: string;
}

/** One team's declaration that it reads the event (and the field asked about). */
export interface ConsumerInfo extends TeamInfo {
  /** The declared semver range over the event's versions. */
  versions: string;
  /** The event versions asked about that the range takes in. */
  reads: string[];
  reader: 'tolerant' | 'strict';
  services: string[];
  /**
   * How the declaration meets the field asked about: `field` (a declared path is, holds or is inside
   * it), `wildcard` (`*`, `a.*`), `no-field-detail` (the team lists no fields); `event` when no field was asked.
   */
  match: 'field' | 'wildcard' | 'no-field-detail' | 'event';
  /** The declared field paths that reach the field asked about (all declared ones when none was). */
  fields: string[];
  /** `file:line:column` of the declaration. */
  declaration: string;
}

/** One version of the event: its group's owning team and the services that emit it. */
export interface VersionOwnership {
  key: string;
  group: string;
  owner?: TeamInfo;
  producers: (Producer & { codeOwner?: string })[];
}

/** Who owns, emits and reads an event type (or one of its versions, or one of its fields). */
export interface ConsumersInfo {
  type: string;
  field?: string;
  versions: VersionOwnership[];
  consumers: ConsumerInfo[];
}

/**
 * The teams that declare reading `versions` (all of one event type) and, when `field` is given, that
 * field: matched with the same path relation `eventry check` uses to weigh a change against declarations.
 */
export function consumersOf(
  catalogue: Catalogue,
  versions: readonly EventVersion[],
  field: string | undefined,
): ConsumersInfo {
  const type = versions[0]!.type;
  if (field !== undefined) checkField(catalogue, versions, field);
  const ownership = catalogue.ownership;
  const consumers: ConsumerInfo[] = [];
  for (const declaration of ownership?.consumers ?? []) {
    if (declaration.event !== type) continue;
    const reads = versions
      .filter((event) => safeMatch(declaration.versions, event.version))
      .map((event) => event.key);
    if (reads.length === 0) continue;
    const declared = declaration.fields;
    let match: ConsumerInfo['match'] = 'event';
    let fields = declared ?? [];
    if (field !== undefined) {
      if (!declared) match = 'no-field-detail';
      else {
        const related = declared
          .map((path) => ({ path, relation: relatePaths(path, field) }))
          .filter((one) => one.relation !== 'none');
        if (related.length === 0) continue;
        fields = related.map((one) => one.path);
        match = related.some((one) => one.relation !== 'wildcard') ? 'field' : 'wildcard';
      }
    }
    const { source } = declaration;
    consumers.push({
      ...teamInfo(ownership!, declaration.team),
      versions: declaration.versions,
      reads,
      reader: declaration.reader,
      services: declaration.services ?? [],
      match,
      fields,
      declaration: `${source.file}:${source.line}:${source.column}`,
    });
  }
  return {
    type,
    ...(field !== undefined ? { field } : {}),
    versions: versions.map((event) => versionOwnership(catalogue, event)),
    consumers: consumers.sort((a, b) => a.team.localeCompare(b.team)),
  };
}

function versionOwnership(catalogue: Catalogue, event: EventVersion): VersionOwnership {
  const group = catalogue.groups.find((candidate) => candidate.slug === event.group);
  const ownership = catalogue.ownership;
  const producers = group?.producers?.[event.key] ?? [];
  return {
    key: event.key,
    group: event.group,
    ...(group?.owner ? { owner: teamInfo(ownership, group.owner) } : {}),
    producers: producers.map((producer) => {
      const codeOwner = ownership?.teams[producer.team]?.codeOwner;
      return { ...producer, ...(codeOwner ? { codeOwner } : {}) };
    }),
  };
}

function teamInfo(ownership: Ownership | undefined, id: string): TeamInfo {
  const team: Team | undefined = ownership?.teams[id];
  return {
    team: id,
    name: team?.name ?? id,
    contact: team?.contact ?? '',
    ...(team?.codeOwner ? { codeOwner: team.codeOwner } : {}),
  };
}

/** Refuses a field no version of the event has, with the closest path. */
function checkField(catalogue: Catalogue, versions: readonly EventVersion[], field: string): void {
  const all = versions.map((event) => fieldPathsOf(event, catalogue.shapes));
  if (all.some((paths) => hasFieldPath(field, paths))) return;
  const guess = suggest(
    field,
    all.flatMap((paths) => [...paths.paths]),
  );
  throw new McpToolError(
    'unknown-field',
    `No field \`${field}\` in any version of \`${versions[0]!.type}\`.${guess ? ` Did you mean \`${guess}\`?` : ''}`,
  );
}

function safeMatch(range: string, version: string): boolean {
  try {
    return rangeMatches(range, version);
  } catch {
    return false; // an invalid range is the loader's problem (`invalid-version-range`)
  }
}
