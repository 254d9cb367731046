import { rangeMatches, relatePaths } from '../load/index.js';
import type { Catalogue, ConsumerDeclaration, EventVersion, Producer, Team } from '../model.js';
import { filledColumns } from './columns.js';
import { type Graph, layoutGraph } from './graph.js';

/**
 * Who owns, produces and reads what, as the portal shows it: the event pages' owner, producers and
 * consumers (and per field the teams that read it), the team pages, and the producer -> event ->
 * consumer graph drawn at build time as SVG (no script needed to see it).
 */

/** A team as a page links it. */
export interface TeamRef {
  id: string;
  name: string;
}

/** One declaration that reads an event version, as its page lists it. */
export interface EventReader extends TeamRef {
  reader: ConsumerDeclaration['reader'];
  versions: string;
  services: string[];
  /** The declared field paths; undefined: no field detail. */
  fields?: string[];
}

/** What an event page shows of its ownership. */
export interface EventOwnership {
  owner?: TeamRef;
  producers: (Producer & { teamName: string })[];
  readers: EventReader[];
}

function teamRef(catalogue: Catalogue, id: string): TeamRef {
  return { id, name: catalogue.ownership?.teams[id]?.name ?? id };
}

/** Whether a declaration's range takes `version`; an invalid range is the loader's problem, not ours. */
function declares(declaration: ConsumerDeclaration, event: EventVersion): boolean {
  if (declaration.event !== event.type) return false;
  try {
    return rangeMatches(declaration.versions, event.version);
  } catch {
    return false;
  }
}

const byTypeMemo = new WeakMap<object, Map<string, ConsumerDeclaration[]>>();

/** The declarations by event type, indexed once per catalogue (10,000 pages each look theirs up). */
function declarationsOf(catalogue: Catalogue, type: string): ConsumerDeclaration[] {
  const ownership = catalogue.ownership;
  if (!ownership) return [];
  let byType = byTypeMemo.get(ownership);
  if (!byType) {
    byType = new Map();
    for (const declaration of ownership.consumers) {
      const list = byType.get(declaration.event);
      if (list) list.push(declaration);
      else byType.set(declaration.event, [declaration]);
    }
    byTypeMemo.set(ownership, byType);
  }
  return byType.get(type) ?? [];
}

/** The owner, producers and declared consumers of one event version. */
export function eventOwnership(catalogue: Catalogue, event: EventVersion): EventOwnership {
  const group = catalogue.groups.find((g) => g.slug === event.group);
  const producers = (group?.producers?.[event.key] ?? []).map((producer) => ({
    ...producer,
    teamName: teamRef(catalogue, producer.team).name,
  }));
  const readers = declarationsOf(catalogue, event.type)
    .filter((declaration) => declares(declaration, event))
    .map((declaration) => ({
      ...teamRef(catalogue, declaration.team),
      reader: declaration.reader,
      versions: declaration.versions,
      services: declaration.services ?? [],
      ...(declaration.fields ? { fields: declaration.fields } : {}),
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
  return { ...(group?.owner ? { owner: teamRef(catalogue, group.owner) } : {}), producers, readers };
}

/**
 * The teams that read the field at `path` (a fields-table row): a declared path that is the field,
 * lies inside it, covers it or reaches it through a wildcard. A declaration without field detail
 * names no field.
 */
export function fieldReaders(readers: readonly EventReader[], path: string): TeamRef[] {
  return readers
    .filter((reader) => reader.fields?.some((field) => relatePaths(field, path) !== 'none'))
    .map(({ id, name }) => ({ id, name }));
}

/** What a team page shows. */
export interface TeamPage {
  id: string;
  name: string;
  contact: string;
  codeOwner?: string;
  owns: { slug: string; title: string }[];
  produces: { key: string; services: string[] }[];
  consumes: { event: string; versions: string; reader: string; services: string[]; keys: string[] }[];
  /** The consumes table's optional columns some row fills. */
  consumesColumns: { services: boolean };
  graph?: Graph;
}

/** The data of every team page, sorted by id. */
export function teamPages(catalogue: Catalogue): TeamPage[] {
  const ownership = catalogue.ownership;
  if (!ownership) return [];
  const byType = new Map<string, EventVersion[]>();
  for (const event of Object.values(catalogue.events)) {
    const list = byType.get(event.type);
    if (list) list.push(event);
    else byType.set(event.type, [event]);
  }
  return Object.values(ownership.teams)
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((team: Team) => {
      const produces: TeamPage['produces'] = [];
      for (const group of catalogue.groups)
        for (const [key, producers] of Object.entries(group.producers ?? {})) {
          const services = producers.filter((p) => p.team === team.id).map((p) => p.service);
          if (services.length > 0) produces.push({ key, services });
        }
      produces.sort((a, b) => a.key.localeCompare(b.key));
      const consumes = ownership.consumers
        .filter((declaration) => declaration.team === team.id)
        .map((declaration) => ({
          event: declaration.event,
          versions: declaration.versions,
          reader: declaration.reader,
          services: declaration.services ?? [],
          keys: (byType.get(declaration.event) ?? [])
            .filter((event) => declares(declaration, event))
            .map((event) => event.key)
            .sort(),
        }));
      const page: TeamPage = {
        id: team.id,
        name: team.name,
        contact: team.contact,
        ...(team.codeOwner ? { codeOwner: team.codeOwner } : {}),
        owns: catalogue.groups
          .filter((group) => group.owner === team.id)
          .map((group) => ({ slug: group.slug, title: group.title })),
        produces,
        consumes,
        consumesColumns: filledColumns(consumes, { services: (entry) => entry.services.length > 0 }),
      };
      const graph = teamGraph(page);
      return graph ? { ...page, graph } : page;
    });
}

/** At most this many boxes per column, so a busy team's page stays small. */
const GRAPH_CAP = 12;

/** Producers (service, team) -> the event -> consumer teams; undefined when there are neither. */
export function eventGraph(key: string, ownership: EventOwnership): Graph | undefined {
  if (ownership.producers.length === 0 && ownership.readers.length === 0) return undefined;
  const producers = ownership.producers.slice(0, GRAPH_CAP);
  const readers = ownership.readers.slice(0, GRAPH_CAP);
  return layoutGraph(
    `Who produces and who reads ${key}`,
    [
      producers.map((p) => ({
        label: `${p.service} (${p.teamName})`,
        href: `teams/${p.team}/index.html`,
      })),
      [{ label: key }],
      readers.map((r) => ({ label: r.name, href: `teams/${r.id}/index.html` })),
    ],
    [
      ...producers.map((_, i): [number, number, number] => [0, i, 0]),
      ...readers.map((_, i): [number, number, number] => [1, 0, i]),
    ],
  );
}

/** A team page's graph: its services -> the events it produces, and the events it reads -> the team. */
function teamGraph(page: TeamPage): Graph | undefined {
  const produced = page.produces.slice(0, GRAPH_CAP);
  const read = [...new Set(page.consumes.flatMap((entry) => entry.keys))]
    .filter((key) => !produced.some((p) => p.key === key))
    .slice(0, GRAPH_CAP - produced.length);
  if (produced.length === 0 && read.length === 0) return undefined;
  const services = [...new Set(produced.flatMap((p) => p.services))].sort();
  const middle = [...produced.map((p) => p.key), ...read];
  return layoutGraph(
    `What ${page.name} produces and reads`,
    [
      services.map((service) => ({ label: service })),
      middle.map((key) => ({ label: key, href: `events/${key}/index.html` })),
      read.length > 0 ? [{ label: page.name }] : [],
    ],
    [
      ...produced.flatMap((p, i) =>
        p.services.map((service): [number, number, number] => [0, services.indexOf(service), i]),
      ),
      ...read.map((_, i): [number, number, number] => [1, produced.length + i, 0]),
    ],
  );
}
