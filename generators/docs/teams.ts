import { rangeMatches, relatePaths } from '../load/index.js';
import type { Catalogue, ConsumerDeclaration, EventVersion, Producer, Team } from '../model.js';

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
      };
      const graph = teamGraph(page);
      return graph ? { ...page, graph } : page;
    });
}

/** One box of a graph: a label at a position, linking a page (relative to the site root). */
export interface GraphNode {
  x: number;
  y: number;
  label: string;
  /** The whole label, when `label` is cut to fit its box. */
  full?: string;
  href?: string;
}

/** A graph laid out at build time, for the `graph` partial to draw as inline SVG. */
export interface Graph {
  width: number;
  height: number;
  title: string;
  nodes: GraphNode[];
  /** Straight edges, from the right side of one box to the left side of another. */
  edges: { x1: number; y1: number; x2: number; y2: number }[];
}

/** Box size and spacing; labels longer than fit are cut with an ellipsis (the whole text is the title). */
const BOX = { width: 190, height: 28, gap: 10, column: 250, chars: 22 };
/** At most this many boxes per column, so a busy team's page stays small. */
const GRAPH_CAP = 12;

function clip(text: string): string {
  // Cut in the middle: an event key's version, at its end, tells two long keys apart.
  if (text.length <= BOX.chars) return text;
  const head = Math.ceil((BOX.chars - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (BOX.chars - 1 - head))}`;
}

/** Three columns (left -> middle -> right), each edge from a left box to a middle one or on to a right one. */
function layout(
  title: string,
  columns: [GraphNode[], GraphNode[], GraphNode[]],
  links: [number, number, number][],
): Graph {
  const rows = Math.max(...columns.map((column) => column.length), 1);
  const height = rows * (BOX.height + BOX.gap) + BOX.gap;
  const placed = columns.map((column, c) => {
    const top = (height - column.length * (BOX.height + BOX.gap) + BOX.gap) / 2;
    return column.map((node, r) => ({
      ...node,
      label: clip(node.label),
      ...(clip(node.label) === node.label ? {} : { full: node.label }),
      x: c * BOX.column + 5,
      y: Math.round(top + r * (BOX.height + BOX.gap)),
    }));
  });
  const edges = links.map(([c, from, to]) => {
    const a = placed[c]![from]!;
    const b = placed[c + 1]![to]!;
    return { x1: a.x + BOX.width, y1: a.y + BOX.height / 2, x2: b.x, y2: b.y + BOX.height / 2 };
  });
  return { width: 2 * BOX.column + BOX.width + 10, height, title, nodes: placed.flat(), edges };
}

/** Producers (service, team) -> the event -> consumer teams; undefined when there are neither. */
export function eventGraph(key: string, ownership: EventOwnership): Graph | undefined {
  if (ownership.producers.length === 0 && ownership.readers.length === 0) return undefined;
  const producers = ownership.producers.slice(0, GRAPH_CAP);
  const readers = ownership.readers.slice(0, GRAPH_CAP);
  return layout(
    `Who produces and who reads ${key}`,
    [
      producers.map((p) => ({
        x: 0,
        y: 0,
        label: `${p.service} (${p.teamName})`,
        href: `teams/${p.team}/index.html`,
      })),
      [{ x: 0, y: 0, label: key }],
      readers.map((r) => ({ x: 0, y: 0, label: r.name, href: `teams/${r.id}/index.html` })),
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
  return layout(
    `What ${page.name} produces and reads`,
    [
      services.map((service) => ({ x: 0, y: 0, label: service })),
      middle.map((key) => ({ x: 0, y: 0, label: key, href: `events/${key}/index.html` })),
      read.length > 0 ? [{ x: 0, y: 0, label: page.name }] : [],
    ],
    [
      ...produced.flatMap((p, i) =>
        p.services.map((service): [number, number, number] => [0, services.indexOf(service), i]),
      ),
      ...read.map((_, i): [number, number, number] => [1, produced.length + i, 0]),
    ],
  );
}
