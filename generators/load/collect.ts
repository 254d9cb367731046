import type { Group, Producer } from '../model.js';
import {
  type EventDefinition,
  optionalString,
  type Path,
  type RawCatalogueFile,
  type RawDefinition,
  type RawGroup,
  type RawProducer,
  readMap,
  type ShapeDefinition,
  type Unchecked,
} from './definition.js';
import { parseEventKey } from './event-key.js';
import type { CatalogueProblem } from './problem.js';
import type { YamlSource } from './yaml-source.js';

/** Longest event key and group slug: they become file names (`<slug>/events/<key>.d.ts`), at most 255 bytes. */
const MAX_NAME_LENGTH = { event: 200, group: 64 } as const;
/** Group slugs that name something else in the output, with what `packages/<slug>/` holds instead. */
const RESERVED_SLUGS: ReadonlyMap<string, string> = new Map([
  ['catalogue', 'the compiled catalogue'],
  ['runtime', 'the run time every group package depends on'],
]);

/** Every group, shape and event definition of the files, by name; first definitions win. */
export interface Definitions {
  groups: Map<string, Group>;
  shapeDefs: Map<string, ShapeDefinition>;
  eventDefs: Map<string, EventDefinition>;
}

/**
 * Finds the groups, shapes and events the files define, reporting names that cannot be used (reserved,
 * too long, not an event key) and names defined twice, in file order.
 */
export function collectDefinitions(sources: YamlSource[], problems: CatalogueProblem[]): Definitions {
  const definitions: Definitions = { groups: new Map(), shapeDefs: new Map(), eventDefs: new Map() };
  for (const source of sources) collectFile(source, definitions, problems);
  return definitions;
}

/** Adds one file's group, shapes and events to `definitions` (see `collectDefinitions`). */
export function collectFile(
  source: YamlSource,
  definitions: Definitions,
  problems: CatalogueProblem[],
): void {
  const root = readMap<RawCatalogueFile>(source.value);
  if (!root) return;
  collectShapes(source, root, definitions.shapeDefs, problems);
  const group = collectGroup(source, root, definitions.groups, problems);
  if (group) collectEvents(source, root, group, definitions.eventDefs, problems);
}

/** A catalogue file's top level, before the shape check. */
type Root = Unchecked<RawCatalogueFile>;

function collectShapes(
  source: YamlSource,
  root: Root,
  shapeDefs: Map<string, ShapeDefinition>,
  problems: CatalogueProblem[],
): void {
  for (const [name, raw] of Object.entries(readMap<Record<string, RawDefinition>>(root.shapes) ?? {})) {
    const path = ['shapes', name];
    const previous = shapeDefs.get(name);
    if (previous) {
      problems.push(duplicate(source, path, 'duplicate-shape', `Shape \`${name}\``, previous));
      continue;
    }
    shapeDefs.set(name, { kind: 'shape', name, raw: readMap<RawDefinition>(raw) ?? {}, path, source });
  }
}

/**
 * The file's group, added to `groups`: none when its header is not a slug and a title, or when another
 * file declared the slug first (reported here, as is a reserved or too long slug).
 */
function collectGroup(
  source: YamlSource,
  root: Root,
  groups: Map<string, Group>,
  problems: CatalogueProblem[],
): Group | undefined {
  const groupRaw = readMap<RawGroup>(root.group);
  if (!groupRaw || typeof groupRaw.slug !== 'string' || typeof groupRaw.title !== 'string') return undefined;
  const slug = groupRaw.slug;
  problems.push(...slugProblems(source, slug));
  const other = groups.get(slug);
  if (other) {
    const { file, line, column } = other.source;
    problems.push({
      ...source.problem(
        'duplicate-group',
        ['group', 'slug'],
        `Group \`${slug}\` is also declared in ${file}:${line}:${column}.`,
        'Give each group file its own slug, or move the events into one file.',
      ),
      related: [{ file, line, column }],
    });
    return undefined;
  }
  const group: Group = {
    slug,
    title: groupRaw.title,
    ...optionalString('description', groupRaw.description),
    events: [],
    ...optionalString('owner', groupRaw.owner),
    source: source.at(['group']),
  };
  groups.set(slug, group);
  return group;
}

/** A slug that names something else in the output, or is too long for a package and folder name. */
function slugProblems(source: YamlSource, slug: string): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const reserved = RESERVED_SLUGS.get(slug);
  if (reserved !== undefined) {
    problems.push(
      source.problem(
        'reserved-name',
        ['group', 'slug'],
        `A group cannot be called \`${slug}\`: \`packages/${slug}/\` holds ${reserved}.`,
        'Choose another slug for this group.',
      ),
    );
  }
  if (slug.length > MAX_NAME_LENGTH.group) {
    problems.push(
      source.problem(
        'name-too-long',
        ['group', 'slug'],
        `The group slug is ${slug.length} characters long; at most ${MAX_NAME_LENGTH.group} fit a package and folder name.`,
        'Use a short kebab-case slug; the title can say the rest.',
      ),
    );
  }
  return problems;
}

/** The group's events, added to `eventDefs` and to the group (with their producers). */
function collectEvents(
  source: YamlSource,
  root: Root,
  group: Group,
  eventDefs: Map<string, EventDefinition>,
  problems: CatalogueProblem[],
): void {
  const eventsRaw = readMap<Record<string, RawDefinition>>(root.events) ?? {};
  if (Object.keys(eventsRaw).length === 0) {
    problems.push(
      source.problem(
        'empty-group',
        root.events === undefined ? ['group'] : ['events'],
        `Group \`${group.slug}\` has no events.`,
        'Add its events under `events:`, or delete the file.',
        true,
      ),
    );
  }
  for (const [key, raw] of Object.entries(eventsRaw)) {
    const path = ['events', key];
    const problem = eventKeyProblem(source, key, path);
    if (problem) {
      problems.push(problem);
      continue;
    }
    const previous = eventDefs.get(key);
    if (previous) {
      problems.push(duplicate(source, path, 'duplicate-event', `Event \`${key}\``, previous));
      continue;
    }
    const producers = readProducers(raw);
    if (producers) {
      group.producers ??= {};
      group.producers[key] = producers;
    }
    const definition = readMap<RawDefinition>(raw) ?? {};
    eventDefs.set(key, { kind: 'event', name: key, raw: definition, path, source, group: group.slug });
    group.events.push(key);
  }
}

/** An event key that is not of the form `<event_type>-<version>`, or too long for a file name. */
function eventKeyProblem(source: YamlSource, key: string, path: Path): CatalogueProblem | undefined {
  if (!parseEventKey(key)) {
    return source.problem(
      'invalid-event-key',
      path,
      `\`${key}\` is not an event key of the form \`<event_type>-<version>\`.`,
      'The type is dot-separated lowercase words (`a-z 0-9 _ -`), the version `vN` (`v1`, `v2`) or semver (`1.0.0`): `account.created-v1`.',
      true,
    );
  }
  if (key.length > MAX_NAME_LENGTH.event) {
    return source.problem(
      'name-too-long',
      path,
      `The event key is ${key.length} characters long; at most ${MAX_NAME_LENGTH.event} fit a file name.`,
      'Shorten the event type; a description can say the rest.',
      true,
    );
  }
  return undefined;
}

function duplicate(
  source: YamlSource,
  path: Path,
  code: 'duplicate-shape' | 'duplicate-event',
  what: string,
  first: EventDefinition | ShapeDefinition,
): CatalogueProblem {
  const at = first.source.keyAt(first.path);
  const problem = source.problem(
    code,
    path,
    `${what} is defined twice; the first definition is at ${at.file}:${at.line}:${at.column}.`,
    code === 'duplicate-event'
      ? 'Keep one definition; a changed payload needs a new version key.'
      : 'Keep one definition, or give one of them another name.',
    true,
  );
  return { ...problem, related: [{ file: at.file, line: at.line, column: at.column }] };
}

/** An event's `producers:` that have the schema's shape (the shape check reports the others). */
function readProducers(raw: unknown): Producer[] | undefined {
  const list = readMap<RawDefinition>(raw)?.producers;
  if (!Array.isArray(list)) return undefined;
  const producers: Producer[] = [];
  for (const item of list) {
    const producer = readMap<RawProducer>(item);
    if (producer && typeof producer.service === 'string' && typeof producer.team === 'string')
      producers.push({ service: producer.service, team: producer.team });
  }
  return producers.length > 0 ? producers : undefined;
}
