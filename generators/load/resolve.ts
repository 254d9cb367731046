import type { Deprecation, EventVersion, Field, Group, Shape } from '../model.js';
import { collectDefinitions } from './collect.js';
import { compositionOf, createFieldResolver } from './compose.js';
import {
  type Definition,
  type EventDefinition,
  optionalString,
  type RawDeprecated,
  type ResolveContext,
  readMap,
  type ShapeDefinition,
} from './definition.js';
import { interfaceName, parseEventKey } from './event-key.js';
import { readMigrations } from './migrations.js';
import type { CatalogueProblem } from './problem.js';
import { readRules, shapeRulePlaces } from './rules.js';
import { suggest } from './suggest.js';
import type { YamlSource } from './yaml-source.js';

/** Names every generated types file declares itself; a shape of the same name would collide. */
const GENERATED_TYPE_NAMES = new Set(['EventPayloadMap', 'EventKey']);

/**
 * Turns the parsed files into groups, shapes and events with every composition resolved: collect the
 * definitions (collect.ts), then resolve each one's fields (compose.ts, parse-type.ts).
 */
export function resolveCatalogue(
  sources: YamlSource[],
  options: { incomplete?: boolean } = {},
): {
  groups: Group[];
  shapes: Record<string, Shape>;
  events: Record<string, EventVersion>;
  problems: CatalogueProblem[];
} {
  const problems: CatalogueProblem[] = [];
  const { groups, shapeDefs, eventDefs } = collectDefinitions(sources, problems);
  const ctx: ResolveContext = { shapeDefs, eventDefs, problems, incomplete: options.incomplete === true };
  const { shapes, events } = resolveDefinitions(ctx, shapeDefs.values(), eventDefs.values());
  checkTypeNames(shapeDefs, eventDefs, problems);
  const sortedGroups = [...groups.values()].sort((a, b) => a.slug.localeCompare(b.slug));
  return { groups: sortedGroups, shapes, events, problems };
}

/**
 * The model of each of `shapeDefs` and `eventDefs` (null-prototype records, in the order given), what
 * they build on looked up in `ctx` and composed by `fieldsOf` (which memoises): all of a catalogue's
 * definitions, or those an incremental load resolves again (`execute/fast/load/incremental.ts`).
 */
export function resolveDefinitions(
  ctx: ResolveContext,
  shapeDefs: Iterable<ShapeDefinition>,
  eventDefs: Iterable<EventDefinition>,
  fieldsOf: (def: Definition) => Field[] = createFieldResolver(ctx),
): { shapes: Record<string, Shape>; events: Record<string, EventVersion> } {
  const shapes: Record<string, Shape> = Object.create(null);
  for (const def of shapeDefs) {
    const fields = fieldsOf(def);
    shapes[def.name] = {
      name: def.name,
      ...optionalString('description', def.raw.description),
      ...(typeof def.raw.extends === 'string' ? { extends: def.raw.extends } : {}),
      fields,
      ...readRules(ctx, def, fields, fieldsOf),
      source: def.source.keyAt(def.path),
    };
  }

  const events: Record<string, EventVersion> = Object.create(null);
  for (const def of eventDefs) {
    const parsed = parseEventKey(def.name);
    if (!parsed) continue;
    const deprecated = readDeprecation(ctx, def);
    const fields = fieldsOf(def);
    events[def.name] = {
      key: def.name,
      type: parsed.type,
      version: parsed.version,
      group: def.group,
      title: typeof def.raw.title === 'string' ? def.raw.title : def.name,
      ...optionalString('description', def.raw.description),
      composition: compositionOf(def),
      fields,
      ...optionalString('partial', def.raw.partial),
      ...(deprecated ? { deprecated } : {}),
      ...readRules(ctx, def, fields, fieldsOf),
      ...shapeRulePlaces(ctx, def, fields, fieldsOf),
      ...readMigrations(ctx, def, fields, fieldsOf),
      source: def.source.keyAt(def.path),
    };
  }
  return { shapes, events };
}

/** Every event and shape becomes a TypeScript interface; two of one name would not compile. */
function checkTypeNames(
  shapeDefs: ReadonlyMap<string, ShapeDefinition>,
  eventDefs: ReadonlyMap<string, EventDefinition>,
  problems: CatalogueProblem[],
): void {
  const owners = new Map<string, EventDefinition | ShapeDefinition>();
  for (const def of shapeDefs.values()) {
    if (GENERATED_TYPE_NAMES.has(def.name)) {
      problems.push(
        def.source.problem(
          'type-name-collision',
          def.path,
          `Shape \`${def.name}\` has the name of a type every generated package declares.`,
          `Rename the shape; ${[...GENERATED_TYPE_NAMES].join(' and ')} are taken.`,
          true,
        ),
      );
      continue;
    }
    owners.set(def.name, def);
  }
  for (const def of eventDefs.values()) {
    const name = interfaceName(def.name);
    const other = owners.get(name);
    if (!other) {
      owners.set(name, def);
      continue;
    }
    const at = other.source.keyAt(other.path);
    problems.push({
      ...def.source.problem(
        'type-name-collision',
        def.path,
        `Event \`${def.name}\` would become the TypeScript type \`${name}\`, as ${other.kind} \`${other.name}\` (${at.file}:${at.line}:${at.column}) does.`,
        other.kind === 'event'
          ? 'Punctuation is dropped in type names (`a.b` and `a_b` both give `AB`): rename one of the events.'
          : 'Rename the shape, or the event.',
        true,
      ),
      related: [{ file: at.file, line: at.line, column: at.column }],
    });
  }
}

/** An event's `deprecated:` notice; a `replaced_by` naming no event is reported, with a guess. */
function readDeprecation(ctx: ResolveContext, def: EventDefinition): Deprecation | undefined {
  const raw = readMap<RawDeprecated>(def.raw.deprecated);
  if (!raw || typeof raw.since !== 'string') return undefined;
  const replacedBy = typeof raw.replaced_by === 'string' ? raw.replaced_by : undefined;
  if (replacedBy && !ctx.eventDefs.has(replacedBy) && !ctx.incomplete) {
    const guess = suggest(replacedBy, ctx.eventDefs.keys());
    ctx.problems.push(
      def.source.problem(
        'unknown-event',
        [...def.path, 'deprecated', 'replaced_by'],
        `Event \`${replacedBy}\` is not defined.`,
        guess ? `Did you mean \`${guess}\`?` : 'Name the event version that replaces this one.',
      ),
    );
  }
  return {
    since: raw.since,
    ...(replacedBy ? { replacedBy } : {}),
    ...optionalString('note', raw.note),
  };
}
