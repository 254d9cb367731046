/**
 * The one intermediate model. The loader (generators/load/) is the only code that reads YAML; every
 * emitter, the diff, the docs and the CLI read a `Catalogue` and nothing else.
 *
 * Compositions are resolved: an event's `fields` is its complete, ordered field list (fields that came
 * from `same_as` / `extends` included, each remembering where it came from). Named shapes are
 * referenced by name (`{ kind: 'shape', name }`), never copied.
 */

import type { SourceLocation } from './model-location.js';
import type { Migration } from './model-migration.js';

export type { SourceLocation } from './model-location.js';
export type { JsonValue, Migration, MigrationStep } from './model-migration.js';

/** String formats a field may declare (only where the source declares them). */
export type StringFormat = 'date' | 'date-time';

/** Scalar kinds of the catalogue notation: no suffix, `:i`, `:n`, `:b`. */
export type ScalarKind = 'string' | 'integer' | 'number' | 'boolean';

/** The type of a field or of an array's items. */
export type FieldType =
  | { kind: ScalarKind; format?: StringFormat; enum?: readonly (string | number)[] }
  /** `:o`, an object without listed fields: accepts any keys in every mode. */
  | { kind: 'object' }
  | { kind: 'array'; items: FieldType }
  /** `:TypeName`, a nested object of a named shape. */
  | { kind: 'shape'; name: string };

/** What a field's data is, as its author classified it (`classification:`): for privacy reviews and lint. */
export type Classification = 'public' | 'internal' | 'personal' | 'sensitive';

/** One field of an event or a shape, as resolved. */
export interface Field {
  name: string;
  type: FieldType;
  required: boolean;
  description?: string;
  classification?: Classification;
  /** The event key or shape name the field was inherited from through `same_as` / `extends`. */
  inheritedFrom?: string;
  source: SourceLocation;
}

/** A named shape (`Ledger`, `ConvBase`, ...), shared by events and other shapes. */
export interface Shape {
  name: string;
  description?: string;
  /** The shape this one extends, if any (already folded into `fields`). */
  extends?: string;
  fields: Field[];
  /** Its data rules (`rules:`), over `this`; every event enforces them wherever the shape sits. */
  rules?: Rule[];
  source: SourceLocation;
}

/**
 * A data rule (`rules:` of an event or a shape): a CEL condition every payload must keep, over
 * `message` (an event's) or `this` (a shape's), type-checked by the loader (see generators/cel/).
 */
export interface Rule {
  /** snake_case, unique in its event or shape. */
  name: string;
  /** The CEL expression, as written. */
  expr: string;
  /** What the 400 body says when a payload breaks it. */
  message: string;
  /** The field the error names, a dot path (relative to the shape for a shape's rule); "" is the value itself. */
  attr: string;
  /** Where `expr` is written. */
  source: SourceLocation;
}

/**
 * Where a shape with rules sits in an event: the field path from the payload, `[]` for the items of
 * an array (`['lines', '[]']`). An optional field on the way may be absent: its rules then do not apply.
 */
export interface ShapeRulePlace {
  shape: string;
  path: string[];
}

/** Notice that an event version is deprecated (the notice versioning requires before removal). */
export interface Deprecation {
  /** Catalogue version or ISO date from which the version is deprecated. */
  since: string;
  /** The event key that replaces it, if any. */
  replacedBy?: string;
  note?: string;
}

/** How an event's field list was composed in the source. */
export type Composition =
  | { kind: 'fields' }
  | { kind: 'same_as'; of: string }
  | { kind: 'extends'; of: string; ofKind: 'event' | 'shape' };

/** One event payload version, keyed `<event_type>-<version>`. */
export interface EventVersion {
  /** `account.created-v1`. */
  key: string;
  /** `account.created`. */
  type: string;
  /** `v1`, or a semver string such as `1.0.0`. */
  version: string;
  /** Slug of the group that holds it. */
  group: string;
  title: string;
  description?: string;
  composition: Composition;
  fields: Field[];
  /**
   * The platform lists this event only in part: its schema stays open (unknown fields accepted in
   * every mode) and says so. The value is the explanation shown to users.
   */
  partial?: string;
  deprecated?: Deprecation;
  /** Its own data rules (`rules:`), over `message`. */
  rules?: Rule[];
  /** Every place in its payload where a shape with rules sits, in field order (see `ShapeRulePlace`). */
  shapeRules?: ShapeRulePlace[];
  /** How a payload of an earlier version of its type becomes one of this version (`upgrade:`). */
  upgrade?: Migration;
  /** How a payload of this version becomes one of `upgrade.from` (`downgrade:`); only beside `upgrade`. */
  downgrade?: Migration;
  source: SourceLocation;
}

/** A group of events, published as one npm package. */
export interface Group {
  /** Short kebab-case slug, also the package name below the scope. */
  slug: string;
  title: string;
  description?: string;
  /** Event keys, in source order. */
  events: string[];
  /** The id of the team that owns the group (`owner:`), a team of `teams.yaml`. */
  owner?: string;
  /**
   * The services that emit each event of the group (its `producers:`), by event key. Kept on the group,
   * which every load makes, so checking them never makes an event an incremental load left unmade.
   */
  producers?: Record<string, Producer[]>;
  source: SourceLocation;
}

/** Catalogue-wide settings from `catalogue/eventry.config.yaml`. */
export interface CatalogueConfig {
  title: string;
  /** Version of the catalogue as a whole (semver). */
  version: string;
  /** npm scope of the group packages, with its `@`. */
  scope: string;
  description?: string;
  /** Schema registry compatibility settings (`compatibility:`), as written; see generators/schema-registry/. */
  compatibility?: CompatibilityConfig;
  /** `lint:` settings (preset, rules, ignores, baseline), as written; see generators/lint/. */
  lint?: LintConfig;
  /** How `eventry check` weighs consumer declarations (`consumers:`), as written. */
  consumers?: { unread_breaking?: 'block' | 'warn' };
}

/** How much a lint finding matters; `off` turns a rule off. */
export type LintSeverity = 'error' | 'warning' | 'info' | 'off';

/** `lint:` of eventry.config.yaml. */
export interface LintConfig {
  preset?: 'recommended' | 'strict';
  rules?: Record<string, LintSeverity | { severity?: LintSeverity; pattern?: string }>;
  ignore?: { path: string; rules?: string[]; reason: string }[];
  baseline?: string;
}

/** A Confluent compatibility level. */
export type CompatibilityLevel = (typeof COMPATIBILITY_LEVELS)[number];

/** Every Confluent compatibility level, in Confluent's order (the CLI's and the MCP server's choices). */
export const COMPATIBILITY_LEVELS = [
  'NONE',
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
] as const;

/** `compatibility:` of eventry.config.yaml: a catalogue-wide level, overridden per group slug or event key. */
export interface CompatibilityConfig {
  level?: CompatibilityLevel;
  policy?: 'STRICT' | 'LENIENT';
  groups?: Record<string, CompatibilityLevel>;
  events?: Record<string, CompatibilityLevel>;
}

/** The whole catalogue: the single model every consumer reads. */
export interface Catalogue {
  config: CatalogueConfig;
  /** Groups in a stable order (by slug). */
  groups: Group[];
  /** Named shapes by name; iterate with `sortedKeys` for stable output. */
  shapes: Record<string, Shape>;
  /** Event versions by key. */
  events: Record<string, EventVersion>;
  /** sha256 of the catalogue source (all files, sorted by path), hex. */
  hash: string;
  /**
   * Teams and consumer declarations (`teams.yaml`, `consumers/`), when the catalogue has any. Not part
   * of `hash` and emitted nowhere: who reads an event is no part of its contract.
   */
  ownership?: Ownership;
}

/** The notation of a type as catalogue authors write it: `string`, `[Ledger]`, `[[integer]]`. */
export function typeNotation(type: FieldType): string {
  switch (type.kind) {
    case 'array':
      return `[${typeNotation(type.items)}]`;
    case 'shape':
      return type.name;
    default:
      return type.kind;
  }
}

/** What the user-visible description of an event depends on (the loader's and a reader's events alike). */
export type DescribedEvent = Pick<
  EventVersion,
  'type' | 'version' | 'description' | 'partial' | 'deprecated'
>;

/**
 * The description users see in every schema and document: the author's (or a default naming the
 * event), then the partial and the deprecation notice, blank-line separated.
 */
export function eventDescription(event: DescribedEvent): string {
  return [baseEventDescription(event), ...eventNotices(event)].join('\n\n');
}

/** The description without the notices: the author's, or the default that names the event. */
export function baseEventDescription(event: DescribedEvent): string {
  return event.description ?? defaultEventDescription(event);
}

/**
 * The description the author wrote, given the one users see (`eventDescription`) and the event's
 * notices: undefined when it is the default. Kept next to `eventDescription` so that a reader of
 * emitted documents never has to know how the text is put together.
 */
export function authoredDescription(
  event: Omit<DescribedEvent, 'description'>,
  shown: string,
): string | undefined {
  const notices = eventNotices(event)
    .map((notice) => `\n\n${notice}`)
    .join('');
  const text = notices && shown.endsWith(notices) ? shown.slice(0, shown.length - notices.length) : shown;
  return text === defaultEventDescription(event) ? undefined : text;
}

function defaultEventDescription(event: Pick<EventVersion, 'type' | 'version'>): string {
  return `Payload of \`${event.type}\`, version ${event.version}.`;
}

function eventNotices(event: Pick<EventVersion, 'partial' | 'deprecated'>): string[] {
  const notices: string[] = [];
  if (event.partial) notices.push(`Partial: ${event.partial}`);
  if (event.deprecated) {
    const by = event.deprecated.replacedBy ? `; use \`${event.deprecated.replacedBy}\` instead` : '';
    notices.push(
      `Deprecated since ${event.deprecated.since}${by}.${event.deprecated.note ? ` ${event.deprecated.note}` : ''}`,
    );
  }
  return notices;
}

/**
 * The notices `eventDescription` appended to a description, read back: a schema shipped with standard
 * keywords only says *that* an event is partial (not closed) or `deprecated`, and its description says
 * the rest. Kept next to `eventNotices`, whose text it inverts.
 */
export function readEventNotices(
  description: string,
  flags: { partial: boolean; deprecated: boolean },
): Pick<EventVersion, 'partial' | 'deprecated'> {
  let rest = description;
  let deprecated: Deprecation | undefined;
  if (flags.deprecated) {
    const at = rest.lastIndexOf('\n\nDeprecated since ');
    const match = /^Deprecated since (\S+?)(?:; use `([^`]+)` instead)?\.(?: ([\s\S]*))?$/.exec(
      rest.slice(at + 2),
    );
    if (at >= 0 && match) {
      deprecated = {
        since: match[1]!,
        ...(match[2] !== undefined ? { replacedBy: match[2] } : {}),
        ...(match[3] !== undefined ? { note: match[3] } : {}),
      };
      rest = rest.slice(0, at);
    }
  }
  const at = flags.partial ? rest.lastIndexOf('\n\nPartial: ') : -1;
  return {
    ...(at >= 0 ? { partial: rest.slice(at + '\n\nPartial: '.length) } : {}),
    ...(deprecated ? { deprecated } : {}),
  };
}

/**
 * Whether an event's payload is open, undocumented top-level fields accepted in every mode: a partial
 * event, which the platform lists only in part.
 */
export function isOpenEvent(event: Pick<EventVersion, 'partial'>): boolean {
  return event.partial !== undefined;
}

/** The npm package a group is published as: `<scope>/<slug>`. */
export function groupPackageName(model: Pick<Catalogue, 'config'>, group: Pick<Group, 'slug'>): string {
  return `${model.config.scope}/${group.slug}`;
}

// --- Ownership and consumers (teams.yaml, consumers/<team>.yaml; generators/load/consumers.ts) ---

/** A service that emits an event version, and the team that runs it. */
export interface Producer {
  service: string;
  team: string;
}

/** A team, defined once in `teams.yaml`. */
export interface Team {
  /** Kebab-case id other files refer to. */
  id: string;
  name: string;
  /** How to reach the team: an e-mail address, a chat channel. */
  contact: string;
  /** The code-owner handle reviews are requested from (`@org/team`). */
  codeOwner?: string;
  source: SourceLocation;
}

/** How a consumer reads a payload: ignoring what it does not know, or rejecting it. */
export type ReaderMode = 'tolerant' | 'strict';

/** One team's declaration that it reads an event type. */
export interface ConsumerDeclaration {
  team: string;
  /** The event type (`account.created`). */
  event: string;
  /** A semver range over the event's versions (`>=1`; `v2` counts as `2.0.0`). */
  versions: string;
  /** Field paths read (`lines[].amount`, `meta.*`, `*`); undefined: no field detail. */
  fields?: string[];
  reader: ReaderMode;
  /** The services of the team that read it, when declared. */
  services?: string[];
  /** Where the event type is written (its key), its `versions` and each of its `fields`. */
  source: SourceLocation;
  versionsSource: SourceLocation;
  fieldSources?: SourceLocation[];
}

/** A break the consuming team reviewed and accepted (`accepts:` of its declaration file). */
export interface ConsumerAcceptance {
  team: string;
  /** The event key (`account.created-v1`). */
  event: string;
  rule: string;
  attr?: string;
  reason: string;
  source: SourceLocation;
}

/** Who owns, produces and reads what: the teams and every consumer declaration. */
export interface Ownership {
  /** Teams by id. */
  teams: Record<string, Team>;
  /** Declarations by team, then event type order of the file. */
  consumers: ConsumerDeclaration[];
  acceptances: ConsumerAcceptance[];
}
