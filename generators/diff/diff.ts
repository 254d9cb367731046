import {
  baseEventDescription,
  type Catalogue,
  type Deprecation,
  type EventVersion,
  isOpenEvent,
} from '../model.js';
import type { ModelChange } from './model-change.js';
import { diffRules, payloadRules } from './rule-differ.js';
import { ShapeDiffer } from './shape-differ.js';

export type { EnumValue, ModelChange } from './model-change.js';

/**
 * Stage one of the diff: a typed structural comparison of two models, with no judgement. Compositions
 * are already folded by the loader and shapes are expanded here, so a `same_as`/`extends` or `$ref`
 * reshuffle that leaves the payload alone yields no change. Stage two (rules/) classifies.
 */

/** How the diff reads two catalogues. */
export interface DiffOptions {
  /**
   * Whether a field gone beside a new one of the same type is reported as one rename (true, the default:
   * an edit of one catalogue) or as a removal and an addition (two versions of an event type, whose
   * fields are not edits of one another).
   */
  guessRenames?: boolean;
}

/** The structural diff of two catalogues, event version by event version (sorted by key). */
export function diffCatalogues(
  before: Catalogue,
  after: Catalogue,
  options: DiffOptions = {},
): ModelChange[] {
  const differ = new ShapeDiffer(before, after, options.guessRenames !== false);
  const keys = [...new Set([...Object.keys(before.events), ...Object.keys(after.events)])].sort();
  // Two loads of catalogues a few files apart share the objects of what those files do not change
  // (`FastLoad`'s load beside, `execute/fast/load/`): an event that is the same object on both sides,
  // when every shape is too, has nothing to compare.
  const sameShapes = sameEntries(before.shapes, after.shapes);
  const changes: ModelChange[] = [];
  for (const key of keys) {
    const old = before.events[key];
    const now = after.events[key];
    if (old && old === now && sameShapes) continue;
    if (old && now) changes.push(...diffEvent(old, now, { before, after }, differ));
    else if (now) changes.push(added(now, before));
    else if (old) changes.push(removed(old, after));
  }
  return changes;
}

/** Whether two records hold the same keys, each with the very same object. */
function sameEntries(a: Readonly<Record<string, object>>, b: Readonly<Record<string, object>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

function added(event: EventVersion, before: Catalogue): ModelChange {
  const previousVersions = Object.values(before.events)
    .filter((other) => other.type === event.type && other.key !== event.key)
    .map((other) => other.key)
    .sort();
  return {
    kind: 'event-added',
    event: event.key,
    group: event.group,
    attr: null,
    location: event.source,
    after: event,
    previousVersions,
  };
}

function removed(event: EventVersion, after: Catalogue): ModelChange {
  const group = after.groups.find((g) => g.slug === event.group);
  return {
    kind: 'event-removed',
    event: event.key,
    group: event.group,
    attr: null,
    ...(group ? { location: group.source } : {}),
    oldLocation: event.source,
    before: event,
  };
}

function diffEvent(
  old: EventVersion,
  now: EventVersion,
  sides: { before: Catalogue; after: Catalogue },
  differ: ShapeDiffer,
): ModelChange[] {
  const { after } = sides;
  const changes: ModelChange[] = [];
  const base = {
    event: now.key,
    group: now.group,
    attr: null,
    location: now.source,
    oldLocation: old.source,
  };
  if (old.group !== now.group) {
    // A move between groups is a move between npm packages: gone from one, new in the other.
    changes.push({ ...removed(old, after), movedTo: now.group } as ModelChange);
    changes.push({ ...base, kind: 'event-added', after: now, movedFrom: old.group, previousVersions: [] });
  }
  const openness = (event: EventVersion) => (isOpenEvent(event) ? 'open' : 'closed');
  if (openness(old) !== openness(now)) {
    changes.push({ ...base, kind: 'openness-changed', before: openness(old), after: openness(now) });
  } else if (old.partial !== now.partial) {
    changes.push({
      ...base,
      kind: 'text-changed',
      text: 'partial-note',
      before: old.partial,
      after: now.partial,
    });
  }
  if (!old.deprecated && now.deprecated)
    changes.push({ ...base, kind: 'deprecation-added', after: now.deprecated });
  else if (old.deprecated && !now.deprecated) {
    changes.push({ ...base, kind: 'deprecation-removed', before: old.deprecated });
  } else if (old.deprecated && now.deprecated && !sameDeprecation(old.deprecated, now.deprecated)) {
    changes.push({ ...base, kind: 'deprecation-changed', before: old.deprecated, after: now.deprecated });
  }
  if (old.title !== now.title) {
    changes.push({ ...base, kind: 'text-changed', text: 'title', before: old.title, after: now.title });
  }
  // Without the notices (diffed on their own), so an explicit copy of the default is not a change.
  if (baseEventDescription(old) !== baseEventDescription(now)) {
    changes.push({
      ...base,
      kind: 'text-changed',
      text: 'description',
      before: old.description,
      after: now.description,
    });
  }
  const rules = diffRules(payloadRules(old, sides.before), payloadRules(now, after));
  for (const change of [...differ.diffFields(old.fields, now.fields, ''), ...rules]) {
    changes.push({
      location: now.source,
      oldLocation: old.source,
      ...change,
      event: now.key,
      group: now.group,
    } as ModelChange);
  }
  return changes;
}

function sameDeprecation(a: Deprecation, b: Deprecation): boolean {
  return a.since === b.since && a.replacedBy === b.replacedBy && a.note === b.note;
}
