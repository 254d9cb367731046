import type { ModelChange } from '../diff/diff.js';
import { diffCatalogues } from '../diff/diff.js';
import type { Finding } from '../diff/rule.js';
import { classifyChanges } from '../diff/rules/index.js';
import {
  type Catalogue,
  type CompatibilityLevel,
  type EventVersion,
  type FieldType,
  isOpenEvent,
} from '../model.js';
import { type CandidateIdentity, catalogueFromJsonSchema } from './json-schema-model.js';
import type { SchemaRegistryState, SubjectVersion } from './registry.js';

/**
 * Confluent compatibility from eventry's diff: the one implementation behind `/compatibility`,
 * `eventry diff --level` and what `register` expects a registry to accept.
 *
 * Confluent's JSON Schema checker (schema-registry, json-schema-provider, `diff/SchemaDiff.java` and
 * `ObjectSchemaDiff.java`) compares a writer schema W with a reader schema R and calls the pair
 * compatible when every difference is in its list of compatible changes: roughly, R accepts every
 * document W accepts. BACKWARD checks W = the earlier version, R = the new one (consumers on the new
 * schema read old data); FORWARD checks W = new, R = earlier (old consumers read new data); FULL both;
 * `_TRANSITIVE` against every earlier version instead of the latest only. Object properties are judged
 * by content model:
 * - a property only R has: if W's object is open (no `additionalProperties: false`) it is
 *   PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL, incompatible under the STRICT policy and compatible under
 *   LENIENT (Confluent 7.9+/8 `json.schema.compatibility.policy`); if W's is closed it is compatible
 *   when optional, REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL (incompatible) when required;
 * - a property only W has: compatible when R's object is open (PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL),
 *   incompatible when R's is closed (PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL);
 * - required in R but not in W: REQUIRED_ATTRIBUTE_ADDED (incompatible); the reverse is compatible;
 * - W closed, R open: ADDITIONAL_PROPERTIES_ADDED (compatible); W open, R closed:
 *   ADDITIONAL_PROPERTIES_REMOVED (incompatible under STRICT, compatible under LENIENT);
 * - another type: TYPE_CHANGED (incompatible), except integer to number (TYPE_EXTENDED, compatible);
 * - enum values only in W: ENUM_ARRAY_NARROWED/CHANGED (incompatible); only in R: extended (compatible).
 * Where Confluent's STRICT and LENIENT lists decide, eventry follows them. It adds two checks of its
 * own, where Confluent's checker lets through data a reader rejects: a string `format` R adds or
 * changes (Confluent ignores `format`), and a property R requires that an open W did not list
 * (Confluent only reports PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL, which LENIENT accepts). Events' nested
 * shapes are closed; an event's top level is open when it is partial.
 */

/** The JSON Schema policy (Confluent 7.9+/8). */
export type Policy = 'STRICT' | 'LENIENT';

/** One side of a level: whether new consumers read old data, or old consumers new data. */
export type Direction = 'backward' | 'forward';

/** The directions a level checks. */
export function directionsOf(level: CompatibilityLevel): Direction[] {
  if (level === 'NONE') return [];
  if (level.startsWith('BACKWARD')) return ['backward'];
  if (level.startsWith('FORWARD')) return ['forward'];
  return ['backward', 'forward'];
}

/** Whether a level checks every earlier version rather than the latest only. */
export const isTransitive = (level: CompatibilityLevel): boolean => level.endsWith('_TRANSITIVE');

/** One reason a change is incompatible in one direction. */
export interface Incompatibility {
  direction: Direction;
  /** Confluent's name for the difference (`REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL`). */
  difference: string;
  /** eventry's finding for the change: rule id, field path, whom it breaks. */
  finding: Finding;
}

/**
 * The incompatibilities of the changes from `before` to `after` (one event version) in the given
 * directions, under a policy. Changes that never matter to a reader (texts, deprecation notices, an
 * event moved between groups) are compatible in every direction.
 */
export function judgeChanges(
  changes: readonly ModelChange[],
  before: EventVersion,
  after: EventVersion,
  directions: readonly Direction[],
  policy: Policy,
): Incompatibility[] {
  const found: Incompatibility[] = [];
  for (const change of changes) {
    for (const direction of directions) {
      const difference = incompatibleDifference(change, before, after, direction, policy);
      if (difference === undefined) continue;
      for (const finding of classifyChanges([change])) found.push({ direction, difference, finding });
    }
  }
  return found;
}

/** Confluent's name for the difference when the change is incompatible in this direction. */
function incompatibleDifference(
  change: ModelChange,
  before: EventVersion,
  after: EventVersion,
  direction: Direction,
  policy: Policy,
): string | undefined {
  const backward = direction === 'backward';
  // Whether the object holding `attr` is open, in the old and the new schema.
  const topLevel = change.attr !== null && !change.attr.includes('.') && !change.attr.includes('[]');
  const oldOpen = topLevel && isOpenEvent(before);
  const newOpen = topLevel && isOpenEvent(after);
  const [writerOpen, readerOpen] = backward ? [oldOpen, newOpen] : [newOpen, oldOpen];
  const lenient = policy === 'LENIENT';
  switch (change.kind) {
    case 'field-added':
    case 'field-removed': {
      // Whether the reader (R) is the side that has the field.
      const readerHasIt = (change.kind === 'field-added') === backward;
      if (readerHasIt) {
        // The reader's copy of the field decides whether it is required (the writer may not have it).
        const required = change.field.required;
        if (writerOpen) {
          // eventry's rule: old data need not carry a field the reader requires, open model or not.
          if (required) return 'REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL (eventry rule)';
          return lenient ? undefined : 'PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL';
        }
        return required ? 'REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL' : undefined;
      }
      return readerOpen ? undefined : 'PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL';
    }
    case 'required-changed': {
      const [writer, reader] = backward ? [change.before, change.after] : [change.after, change.before];
      return reader && !writer ? 'REQUIRED_ATTRIBUTE_ADDED' : undefined;
    }
    case 'openness-changed': {
      const [writer, reader] = backward ? [change.before, change.after] : [change.after, change.before];
      return writer === 'open' && reader === 'closed' && !lenient
        ? 'ADDITIONAL_PROPERTIES_REMOVED'
        : undefined;
    }
    case 'type-changed': {
      const [writer, reader] = backward ? [change.before, change.after] : [change.after, change.before];
      return widens(writer, reader, lenient) ? undefined : 'TYPE_CHANGED';
    }
    case 'format-changed': {
      const [writer, reader] = backward ? [change.before, change.after] : [change.after, change.before];
      // eventry's rule (Confluent ignores `format`): a format the reader adds or changes narrows it.
      return reader !== undefined && reader !== writer ? 'FORMAT_NARROWED (eventry rule)' : undefined;
    }
    case 'enum-changed': {
      const [writer, reader] = backward ? [change.before, change.after] : [change.after, change.before];
      if (reader === undefined) return undefined;
      if (writer === undefined) return 'ENUM_ARRAY_NARROWED';
      const allowed = new Set<string | number>(reader);
      return writer.every((value) => allowed.has(value)) ? undefined : 'ENUM_ARRAY_NARROWED';
    }
    default:
      return undefined;
  }
}

/** Whether every value of `writer` is a value of `reader` (the type changes Confluent calls extensions). */
function widens(writer: FieldType, reader: FieldType, lenient: boolean): boolean {
  if (writer.kind === 'array' && reader.kind === 'array') return widens(writer.items, reader.items, lenient);
  if (writer.kind === 'integer' && reader.kind === 'number') return true;
  // A closed shape read as an open `object`: its properties are removed from an open model.
  if (writer.kind === 'shape' && reader.kind === 'object') return true;
  // An open `object` read as a shape: properties added to an open model, additionalProperties removed.
  if (writer.kind === 'object' && reader.kind === 'shape') return lenient;
  return false;
}

/** The verdict of one event between two catalogues, for `eventry diff --level`. */
export interface EventVerdict {
  event: string;
  /** `new`: no earlier version to be compatible with (a new subject); `removed`: no new version. */
  status: 'compatible' | 'incompatible' | 'new' | 'removed';
  incompatibilities: Incompatibility[];
}

/**
 * Per event, whether a registry at `level` (with `policy`) would accept the new catalogue's schema after
 * the old one's. Two catalogues are two points: a transitive level is judged against the old one only
 * (serve and register check every earlier version).
 */
export function judgeCatalogues(
  before: Catalogue,
  after: Catalogue,
  level: CompatibilityLevel,
  policy: Policy,
): EventVerdict[] {
  const byEvent = new Map<string, ModelChange[]>();
  for (const change of diffCatalogues(before, after)) {
    const list = byEvent.get(change.event) ?? [];
    list.push(change);
    byEvent.set(change.event, list);
  }
  const keys = [...new Set([...Object.keys(before.events), ...Object.keys(after.events)])].sort();
  const verdicts: EventVerdict[] = [];
  for (const key of keys) {
    const old = before.events[key];
    const now = after.events[key];
    if (!old || !now) {
      verdicts.push({ event: key, status: old ? 'removed' : 'new', incompatibilities: [] });
      continue;
    }
    const incompatibilities = judgeChanges(byEvent.get(key) ?? [], old, now, directionsOf(level), policy);
    verdicts.push({
      event: key,
      status: incompatibilities.length > 0 ? 'incompatible' : 'compatible',
      incompatibilities,
    });
  }
  return verdicts;
}

/** A plain-words line for an incompatibility: rule, field, whom it breaks, Confluent's name. */
export function describeIncompatibility(incompatibility: Incompatibility, against?: number): string {
  const { finding, direction, difference } = incompatibility;
  const reader =
    direction === 'backward'
      ? 'consumers using the new schema cannot read data written with the old one'
      : 'consumers using the old schema cannot read data written with the new one';
  const version = against === undefined ? '' : ` (against version ${against})`;
  const breaks = finding.breaks === 'none' ? '' : `; eventry: breaks ${finding.breaks}`;
  return `${direction.toUpperCase()} incompatible${version}: [${finding.rule}] ${finding.detail.replace(/`/g, '')} — ${reader} (${difference}${breaks}).`;
}

/** The verdict on a candidate, or why the candidate cannot be read. */
export type CandidateVerdict = { compatible: boolean; messages: string[] } | { error: string };

const modelCache = new Map<string, Catalogue | string>();

/**
 * `/compatibility`: the candidate JSON Schema against the subject's versions the level names (the
 * latest, or all for a transitive level), or against `against` when a version is given.
 */
export function checkCandidate(
  state: SchemaRegistryState,
  subject: string,
  candidateText: string,
  against?: readonly SubjectVersion[],
): CandidateVerdict {
  const versions = state.subjects.get(subject)!;
  const identity = identityOf(subject, versions.at(-1)!.schema, state.groups.get(subject) ?? '');
  const candidate = catalogueFromJsonSchema(candidateText, identity);
  if (!candidate.ok) return { error: candidate.error };
  const level = state.levelOf(subject);
  const directions = directionsOf(level);
  const targets = against ?? (isTransitive(level) ? versions : [versions.at(-1)!]);
  const messages: string[] = [];
  for (const target of [...targets].reverse()) {
    let model = modelCache.get(target.schema);
    if (model === undefined) {
      const loaded = catalogueFromJsonSchema(target.schema, identity);
      model = loaded.ok ? loaded.catalogue : loaded.error;
      modelCache.set(target.schema, model);
    }
    if (typeof model === 'string') {
      messages.push(`version ${target.version} could not be read for comparison: ${model}`);
      continue;
    }
    const changes = diffCatalogues(model, candidate.catalogue);
    const found = judgeChanges(
      changes,
      model.events[subject]!,
      candidate.catalogue.events[subject]!,
      directions,
      state.compatibility.policy,
    );
    for (const incompatibility of found)
      messages.push(describeIncompatibility(incompatibility, target.version));
  }
  return { compatible: messages.length === 0, messages };
}

function identityOf(subject: string, schema: string, group: string): CandidateIdentity {
  const parsed = JSON.parse(schema) as Record<string, unknown>;
  return {
    key: subject,
    type: typeof parsed['x-event-type'] === 'string' ? parsed['x-event-type'] : subject,
    version: typeof parsed['x-event-version'] === 'string' ? parsed['x-event-version'] : '',
    group,
  };
}
