import {
  type Composition,
  type Deprecation,
  type EventVersion,
  type Field,
  type FieldType,
  type Group,
  type Shape,
  typeNotation,
} from '../model.js';
import { interfaceName, parseEventKey } from './event-key.js';
import type { CatalogueProblem } from './problem.js';
import { suggest } from './suggest.js';
import { toPointer, type YamlSource } from './yaml-source.js';

type Path = (string | number)[];
type RawMap = Record<string, unknown>;

/** An event or shape definition as written, with where it was written. */
interface Definition {
  kind: 'event' | 'shape';
  name: string;
  raw: RawMap;
  path: Path;
  source: YamlSource;
  group?: string;
}

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);
const BUILTINS = ['string', 'integer', 'number', 'boolean', 'object'];

/** Type names from other languages, too far from ours for an edit-distance guess. */
const TYPE_ALIASES = new Map([
  ['bool', 'boolean'],
  ['int', 'integer'],
  ['long', 'integer'],
  ['float', 'number'],
  ['double', 'number'],
  ['decimal', 'number'],
  ['str', 'string'],
  ['text', 'string'],
  ['map', 'object'],
  ['dict', 'object'],
  ['json', 'object'],
  ['any', 'object'],
]);

/** Longest event key and group slug: they become file names (`<slug>/events/<key>.d.ts`), at most 255 bytes. */
export const MAX_NAME_LENGTH = { event: 200, group: 64 } as const;
/** Deepest array type (`[[[T]]]` is 3): beyond this the generated types and examples stop being useful. */
export const MAX_ARRAY_DEPTH = 8;
/** Names every generated types file declares itself; a shape of the same name would collide. */
const GENERATED_TYPE_NAMES = new Set(['EventPayloadMap', 'EventKey']);
/** Field names a JavaScript object already has: as payload keys they break generated code and validators. */
const RESERVED_FIELD_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
/** Group slugs that name something else in the output (`packages/catalogue/` is the compiled catalogue). */
const RESERVED_SLUGS = new Set(['catalogue']);

/** Turns the parsed files into groups, shapes and events with every composition resolved. */
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
  const groups = new Map<string, Group>();
  const shapeDefs = new Map<string, Definition>();
  const eventDefs = new Map<string, Definition>();

  for (const source of sources) collect(source);

  const resolved = new Map<Definition, Field[]>();
  const visiting: Definition[] = [];
  const inCycle = new Set<Definition>();

  const shapes: Record<string, Shape> = Object.create(null);
  for (const def of shapeDefs.values()) {
    const fields = fieldsOf(def);
    shapes[def.name] = {
      name: def.name,
      ...optionalString('description', def.raw.description),
      ...(typeof def.raw.extends === 'string' ? { extends: def.raw.extends } : {}),
      fields,
      source: def.source.keyAt(def.path),
    };
  }

  const events: Record<string, EventVersion> = Object.create(null);
  for (const def of eventDefs.values()) {
    const parsed = parseEventKey(def.name);
    if (!parsed) continue;
    const deprecated = readDeprecation(def);
    events[def.name] = {
      key: def.name,
      type: parsed.type,
      version: parsed.version,
      group: def.group!,
      title: typeof def.raw.title === 'string' ? def.raw.title : def.name,
      ...optionalString('description', def.raw.description),
      composition: compositionOf(def),
      fields: fieldsOf(def),
      ...optionalString('partial', def.raw.partial),
      ...(deprecated ? { deprecated } : {}),
      source: def.source.keyAt(def.path),
    };
  }

  checkTypeNames();
  const sortedGroups = [...groups.values()].sort((a, b) => a.slug.localeCompare(b.slug));
  return { groups: sortedGroups, shapes, events, problems };

  /** Every event and shape becomes a TypeScript interface; two of one name would not compile. */
  function checkTypeNames(): void {
    const owners = new Map<string, Definition>();
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
      problems.push(
        def.source.problem(
          'type-name-collision',
          def.path,
          `Event \`${def.name}\` would become the TypeScript type \`${name}\`, as ${other.kind} \`${other.name}\` (${at.file}:${at.line}:${at.column}) does.`,
          other.kind === 'event'
            ? 'Punctuation is dropped in type names (`a.b` and `a_b` both give `AB`): rename one of the events.'
            : 'Rename the shape, or the event.',
          true,
        ),
      );
    }
  }

  function collect(source: YamlSource): void {
    const root = asMap(source.value);
    if (!root) return;
    const shapesRaw = asMap(root.shapes);
    for (const [name, raw] of Object.entries(shapesRaw ?? {})) {
      const path = ['shapes', name];
      const previous = shapeDefs.get(name);
      if (previous) {
        problems.push(duplicate(source, path, 'duplicate-shape', `Shape \`${name}\``, previous));
        continue;
      }
      shapeDefs.set(name, { kind: 'shape', name, raw: asMap(raw) ?? {}, path, source });
    }
    const groupRaw = asMap(root.group);
    if (!groupRaw || typeof groupRaw.slug !== 'string' || typeof groupRaw.title !== 'string') return;
    const slug = groupRaw.slug;
    if (RESERVED_SLUGS.has(slug)) {
      problems.push(
        source.problem(
          'reserved-name',
          ['group', 'slug'],
          `A group cannot be called \`${slug}\`: \`packages/${slug}/\` holds the compiled catalogue.`,
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
    const other = groups.get(slug);
    if (other) {
      problems.push(
        source.problem(
          'duplicate-group',
          ['group', 'slug'],
          `Group \`${slug}\` is also declared in ${other.source.file}:${other.source.line}:${other.source.column}.`,
          'Give each group file its own slug, or move the events into one file.',
        ),
      );
      return;
    }
    const eventsRaw = asMap(root.events) ?? {};
    const group: Group = {
      slug,
      title: groupRaw.title,
      ...optionalString('description', groupRaw.description),
      events: [],
      source: source.at(['group']),
    };
    groups.set(slug, group);
    if (Object.keys(eventsRaw).length === 0) {
      problems.push(
        source.problem(
          'empty-group',
          root.events === undefined ? ['group'] : ['events'],
          `Group \`${slug}\` has no events.`,
          'Add its events under `events:`, or delete the file.',
          true,
        ),
      );
    }
    for (const [key, raw] of Object.entries(eventsRaw)) {
      const path = ['events', key];
      if (!parseEventKey(key)) {
        problems.push(
          source.problem(
            'invalid-event-key',
            path,
            `\`${key}\` is not an event key of the form \`<event_type>-<version>\`.`,
            'The type is dot-separated lowercase words (`a-z 0-9 _ -`), the version `vN` (`v1`, `v2`) or semver (`1.0.0`): `account.created-v1`.',
            true,
          ),
        );
        continue;
      }
      if (key.length > MAX_NAME_LENGTH.event) {
        problems.push(
          source.problem(
            'name-too-long',
            path,
            `The event key is ${key.length} characters long; at most ${MAX_NAME_LENGTH.event} fit a file name.`,
            'Shorten the event type; a description can say the rest.',
            true,
          ),
        );
        continue;
      }
      const previous = eventDefs.get(key);
      if (previous) {
        problems.push(duplicate(source, path, 'duplicate-event', `Event \`${key}\``, previous));
        continue;
      }
      eventDefs.set(key, { kind: 'event', name: key, raw: asMap(raw) ?? {}, path, source, group: slug });
      group.events.push(key);
    }
  }

  function duplicate(
    source: YamlSource,
    path: Path,
    code: 'duplicate-shape' | 'duplicate-event',
    what: string,
    first: Definition,
  ): CatalogueProblem {
    const at = first.source.keyAt(first.path);
    return source.problem(
      code,
      path,
      `${what} is defined twice; the first definition is at ${at.file}:${at.line}:${at.column}.`,
      code === 'duplicate-event'
        ? 'Keep one definition; a changed payload needs a new version key.'
        : 'Keep one definition, or give one of them another name.',
      true,
    );
  }

  /** The field list of a definition, compositions resolved; memoised, cycles reported once. */
  function fieldsOf(def: Definition): Field[] {
    const done = resolved.get(def);
    if (done) return done;
    if (visiting.includes(def)) {
      const cycle = visiting.slice(visiting.indexOf(def));
      if (!cycle.some((member) => inCycle.has(member))) {
        for (const member of cycle) inCycle.add(member);
        const last = cycle[cycle.length - 1]!;
        const via = typeof last.raw.same_as === 'string' ? 'same_as' : 'extends';
        const chain = [...cycle, def].map((member) => `\`${member.name}\``).join(' → ');
        problems.push(
          last.source.problem(
            'composition-cycle',
            [...last.path, via],
            `\`same_as\`/\`extends\` loop: ${chain}.`,
            'A definition cannot build on itself; give one of them its own `fields`.',
          ),
        );
      }
      return [];
    }
    visiting.push(def);
    const fields = mergeFields(def, inheritedFields(def), ownFields(def));
    visiting.pop();
    resolved.set(def, fields);
    return fields;
  }

  function inheritedFields(def: Definition): Field[] {
    const via =
      typeof def.raw.same_as === 'string'
        ? 'same_as'
        : typeof def.raw.extends === 'string'
          ? 'extends'
          : undefined;
    if (!via) return [];
    const target = referenced(def, via);
    if (!target) return [];
    return fieldsOf(target).map((field) => ({ ...field, inheritedFrom: field.inheritedFrom ?? target.name }));
  }

  /** Looks up what `same_as` / `extends` names; reports it when it does not exist. */
  function referenced(def: Definition, via: 'same_as' | 'extends'): Definition | undefined {
    const name = def.raw[via] as string;
    const wantsShape = def.kind === 'shape' || (via === 'extends' && /^[A-Z]/.test(name));
    const target = wantsShape ? shapeDefs.get(name) : eventDefs.get(name);
    if (target || options.incomplete) return target;
    const pool = wantsShape ? shapeDefs.keys() : eventDefs.keys();
    const guess = suggest(name, pool);
    problems.push(
      def.source.problem(
        wantsShape ? 'unknown-shape' : 'unknown-event',
        [...def.path, via],
        `${wantsShape ? 'Shape' : 'Event'} \`${name}\` is not defined.`,
        guess ? `Did you mean \`${guess}\`?` : `Define it, or check the spelling of \`${name}\`.`,
      ),
    );
    return undefined;
  }

  function ownFields(def: Definition): Field[] {
    const fields: Field[] = [];
    for (const [name, raw] of Object.entries(asMap(def.raw.fields) ?? {})) {
      const path = [...def.path, 'fields', name];
      const spec = asMap(raw);
      if (!spec) continue;
      if (RESERVED_FIELD_NAMES.has(name)) {
        problems.push(
          def.source.problem(
            'reserved-name',
            path,
            `\`${name}\` cannot be a field name: every JavaScript object already has it.`,
            'Rename the field (the platform sends no such field); names like `__proto__` and `hasOwnProperty` break generated code.',
            true,
          ),
        );
        continue;
      }
      const type = parseType(def.source, spec.type, [...path, 'type']);
      if (!type) continue;
      const withFacets = applyFacets(def.source, type, spec, path);
      if (!withFacets) continue;
      fields.push({
        name,
        type: withFacets,
        required: spec.required === true,
        ...optionalString('description', spec.description),
        source: def.source.keyAt(path),
      });
    }
    return fields;
  }

  /** Own fields add to inherited ones; redefining one is allowed only with the same type. */
  function mergeFields(def: Definition, inherited: Field[], own: Field[]): Field[] {
    const merged = [...inherited];
    for (const field of own) {
      const index = merged.findIndex((f) => f.name === field.name);
      if (index === -1) {
        merged.push(field);
        continue;
      }
      const base = merged[index]!;
      if (typeNotation(base.type) !== typeNotation(field.type)) {
        problems.push({
          code: 'field-type-conflict',
          message: `Field \`${field.name}\` is \`${typeNotation(base.type)}\` in \`${base.inheritedFrom ?? def.raw.extends}\` but redefined here as \`${typeNotation(field.type)}\`.`,
          hint: 'Keep the inherited type, or give the field another name (a changed type needs a new event version).',
          ...field.source,
          pointer: toPointer([...def.path, 'fields', field.name]),
        });
        continue;
      }
      merged[index] = field;
    }
    return merged;
  }

  function parseType(source: YamlSource, raw: unknown, path: Path, depth = 0): FieldType | undefined {
    if (Array.isArray(raw)) {
      if (depth >= MAX_ARRAY_DEPTH) {
        problems.push(
          source.problem(
            'array-too-deep',
            path,
            `Arrays nest more than ${MAX_ARRAY_DEPTH} levels deep here.`,
            'Nest fewer arrays, or give the inner items a named shape.',
          ),
        );
        return undefined;
      }
      if (raw.length !== 1) {
        problems.push(
          source.problem(
            'unknown-type',
            path,
            'An array type lists exactly one item type.',
            'Write `[string]`, `[Ledger]`, `[[integer]]`.',
          ),
        );
        return undefined;
      }
      const items = parseType(source, raw[0], [...path, 0], depth + 1);
      return items ? { kind: 'array', items } : undefined;
    }
    if (typeof raw !== 'string') {
      problems.push(
        source.problem(
          'unknown-type',
          path,
          `The field type must be a name or \`[T]\`, not ${raw === null ? 'empty' : typeof raw}.`,
          `Use one of ${BUILTINS.join(', ')}, [T] or a named shape.`,
        ),
      );
      return undefined;
    }
    if (raw === 'object') return { kind: 'object' };
    if (SCALARS.has(raw)) return { kind: raw as 'string' };
    if (/^[A-Z][A-Za-z0-9]*$/.test(raw)) {
      if (shapeDefs.has(raw)) return { kind: 'shape', name: raw };
      if (options.incomplete) return undefined;
      const builtin =
        TYPE_ALIASES.get(raw.toLowerCase()) ?? BUILTINS.find((name) => name === raw.toLowerCase());
      const guess = builtin ?? suggest(raw, shapeDefs.keys());
      problems.push(
        source.problem(
          'unknown-shape',
          path,
          `Shape \`${raw}\` is not defined.`,
          guess ? `Did you mean \`${guess}\`?` : 'Define it under `shapes:`, or check the spelling.',
        ),
      );
      return undefined;
    }
    const guess = TYPE_ALIASES.get(raw.toLowerCase()) ?? suggest(raw, [...BUILTINS, ...shapeDefs.keys()]);
    problems.push(
      source.problem(
        'unknown-type',
        path,
        `Unknown type \`${raw}\`.`,
        `${guess ? `Did you mean \`${guess}\`? ` : ''}Types are ${BUILTINS.join(', ')}, [T] (array of T) or a named shape.`,
      ),
    );
    return undefined;
  }

  /** Puts `format` / `enum` on the innermost scalar of the type, where they make sense. */
  function applyFacets(source: YamlSource, type: FieldType, spec: RawMap, path: Path): FieldType | undefined {
    if (spec.format === undefined && spec.enum === undefined) return type;
    if (type.kind === 'array') {
      const items = applyFacets(source, type.items, spec, path);
      return items ? { kind: 'array', items } : undefined;
    }
    if (!SCALARS.has(type.kind) || type.kind === 'boolean') {
      const facet = spec.format !== undefined ? 'format' : 'enum';
      problems.push(
        source.problem(
          'invalid-format',
          [...path, facet],
          `\`${facet}\` does not apply to a \`${typeNotation(type)}\` field.`,
          '`format` goes on strings; `enum` on strings, integers and numbers.',
        ),
      );
      return undefined;
    }
    if (spec.format !== undefined && type.kind !== 'string') {
      problems.push(
        source.problem(
          'invalid-format',
          [...path, 'format'],
          `\`format: ${String(spec.format)}\` applies to strings, not \`${type.kind}\`.`,
          'Drop the format, or make the field a string.',
        ),
      );
      return undefined;
    }
    const values = Array.isArray(spec.enum) ? spec.enum : undefined;
    if (values) {
      const wrong = values.findIndex((value) => !fitsKind(value, type.kind));
      if (wrong !== -1) {
        problems.push(
          source.problem(
            'invalid-format',
            [...path, 'enum', wrong],
            // As JSON, so the string "2" in an integer enum does not read like the number 2.
            `Enum value \`${JSON.stringify(values[wrong])}\` is not ${aKind(type.kind)}.`,
            `Every value of a \`${type.kind}\` field's enum must be ${aKind(type.kind)}${type.kind === 'string' ? ' (quote numbers)' : ' (without quotes)'}.`,
          ),
        );
        return undefined;
      }
    }
    return {
      kind: type.kind as 'string',
      ...(typeof spec.format === 'string' ? { format: spec.format as 'date' } : {}),
      ...(values ? { enum: values as (string | number)[] } : {}),
    };
  }

  function compositionOf(def: Definition): Composition {
    if (typeof def.raw.same_as === 'string') return { kind: 'same_as', of: def.raw.same_as };
    if (typeof def.raw.extends === 'string') {
      return {
        kind: 'extends',
        of: def.raw.extends,
        ofKind: /^[A-Z]/.test(def.raw.extends) ? 'shape' : 'event',
      };
    }
    return { kind: 'fields' };
  }

  function readDeprecation(def: Definition): Deprecation | undefined {
    const raw = asMap(def.raw.deprecated);
    if (!raw || typeof raw.since !== 'string') return undefined;
    const replacedBy = typeof raw.replaced_by === 'string' ? raw.replaced_by : undefined;
    if (replacedBy && !eventDefs.has(replacedBy) && !options.incomplete) {
      const guess = suggest(replacedBy, eventDefs.keys());
      problems.push(
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
}

function aKind(kind: string): string {
  return `${kind === 'integer' ? 'an' : 'a'} ${kind}`;
}

function fitsKind(value: unknown, kind: string): boolean {
  if (kind === 'string') return typeof value === 'string';
  if (kind === 'integer') return Number.isInteger(value);
  return typeof value === 'number';
}

function asMap(value: unknown): RawMap | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as RawMap) : undefined;
}

function optionalString<K extends string>(key: K, value: unknown): { [P in K]?: string } {
  return (typeof value === 'string' ? { [key]: value } : {}) as { [P in K]?: string };
}
