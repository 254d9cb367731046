import {
  baseEventDescription,
  type Catalogue,
  type Deprecation,
  type EventVersion,
  type Field,
  type FieldType,
  isOpenEvent,
  type ScalarKind,
  type SourceLocation,
  type StringFormat,
  typeNotation,
} from '../model.js';

/**
 * Stage one of the diff: a typed structural comparison of two models, with no judgement. Compositions
 * are already folded by the loader and shapes are expanded here, so a `same_as`/`extends` or `$ref`
 * reshuffle that leaves the payload alone yields no change. Stage two (rules/) classifies.
 */

/** What every change says about where it is. */
interface ChangeBase {
  /** The event key. */
  event: string;
  /** Slug of the group holding the event (the new one, or the old one when it is gone). */
  group: string;
  /** Dot path of the field (`ledger.account.number`, `[]` marks array items); null for the event itself. */
  attr: string | null;
  /** Where a reader of the new catalogue finds it (the old catalogue's when it is gone). */
  location?: SourceLocation;
  /** Where it was in the old catalogue, when it was there. */
  oldLocation?: SourceLocation;
  /**
   * The named shape the change is in, when it reaches the event through one (the innermost shape):
   * `attr` is then the path inside that shape (null for the shape itself).
   */
  via?: { shape: string; attr: string | null };
}

/** Texts that only document. */
export type TextKind = 'title' | 'description' | 'partial-note' | 'field-description' | 'shape-description';

/** One structural difference between the two models. */
export type ModelChange = ChangeBase &
  (
    | { kind: 'event-added'; after: EventVersion; movedFrom?: string; previousVersions: string[] }
    | { kind: 'event-removed'; before: EventVersion; movedTo?: string }
    | { kind: 'openness-changed'; before: 'open' | 'closed'; after: 'open' | 'closed' }
    | { kind: 'deprecation-added'; after: Deprecation }
    | { kind: 'deprecation-removed'; before: Deprecation }
    | { kind: 'deprecation-changed'; before: Deprecation; after: Deprecation }
    | { kind: 'text-changed'; text: TextKind; before?: string; after?: string }
    | { kind: 'field-added'; field: Field }
    | { kind: 'field-removed'; field: Field }
    /** A field removed and one of the same type added in the same object: likely a rename (`attr` is the old path). */
    | { kind: 'field-renamed'; field: Field; to: Field; toAttr: string }
    | { kind: 'required-changed'; before: boolean; after: boolean }
    | { kind: 'type-changed'; before: FieldType; after: FieldType }
    | { kind: 'format-changed'; before?: StringFormat; after?: StringFormat }
    | {
        kind: 'enum-changed';
        scalar: ScalarKind;
        before?: readonly EnumValue[];
        after?: readonly EnumValue[];
      }
  );

/** An enum value as the model holds it. */
export type EnumValue = string | number;

/** A change inside a field list, before it is pinned to an event. */
type Distribute<T> = T extends unknown ? Omit<T, 'event' | 'group'> : never;
type RelChange = Distribute<ModelChange>;

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
    if (old && now) changes.push(...diffEvent(old, now, after, differ));
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
  after: Catalogue,
  differ: ShapeDiffer,
): ModelChange[] {
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
  for (const change of differ.diffFields(old.fields, now.fields, '')) {
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

/**
 * Compares field lists, expanding named shapes into their fields at any depth. The comparison of a
 * pair of shapes is the same wherever they are used, so it is computed once and re-rooted: diffing
 * stays linear in the size of the catalogue even when every event uses the same shapes.
 */
class ShapeDiffer {
  private readonly memo = new Map<string, RelChange[]>();
  private readonly stack: string[] = [];
  private cycleHit = false;

  constructor(
    private readonly before: Catalogue,
    private readonly after: Catalogue,
    private readonly guessRenames = true,
  ) {}

  /** Changes between two field lists; attrs are prefixed with `prefix` (`''` at the top). */
  diffFields(old: readonly Field[], now: readonly Field[], prefix: string): RelChange[] {
    const changes: RelChange[] = [];
    const oldByName = new Map(old.map((field) => [field.name, field]));
    const nowNames = new Set(now.map((field) => field.name));
    const gone = old.filter((field) => !nowNames.has(field.name));
    // A field gone and a new one of the same type beside it is most likely the same field renamed.
    const renamed = new Map<Field, Field>();
    for (const field of now) {
      if (oldByName.has(field.name) || !this.guessRenames) continue;
      const from = gone.find(
        (candidate) => !renamed.has(candidate) && typeNotation(candidate.type) === typeNotation(field.type),
      );
      if (from) renamed.set(from, field);
    }
    const renamedTo = new Set(renamed.values());
    for (const field of now) {
      const attr = join(prefix, field.name);
      const previous = oldByName.get(field.name);
      if (!previous) {
        if (!renamedTo.has(field)) changes.push({ kind: 'field-added', attr, location: field.source, field });
      } else changes.push(...this.diffField(previous, field, attr));
    }
    for (const field of gone) {
      const attr = join(prefix, field.name);
      const to = renamed.get(field);
      if (to) {
        const toAttr = join(prefix, to.name);
        changes.push({
          kind: 'field-renamed',
          attr,
          location: to.source,
          oldLocation: field.source,
          field,
          to,
          toAttr,
        });
      } else changes.push({ kind: 'field-removed', attr, oldLocation: field.source, field });
    }
    return changes;
  }

  private diffField(old: Field, now: Field, attr: string): RelChange[] {
    const changes: RelChange[] = [];
    const location = now.source;
    const oldLocation = old.source;
    if (old.required !== now.required) {
      changes.push({
        kind: 'required-changed',
        attr,
        location,
        oldLocation,
        before: old.required,
        after: now.required,
      });
    }
    if ((old.description ?? '') !== (now.description ?? '')) {
      changes.push({
        kind: 'text-changed',
        text: 'field-description',
        attr,
        location,
        oldLocation,
        before: old.description,
        after: now.description,
      });
    }
    changes.push(...this.diffType(old.type, now.type, attr, location, oldLocation));
    return changes;
  }

  private diffType(
    old: FieldType,
    now: FieldType,
    attr: string,
    location: SourceLocation,
    oldLocation: SourceLocation,
  ): RelChange[] {
    if (skeleton(old) !== skeleton(now))
      return [{ kind: 'type-changed', attr, location, oldLocation, before: old, after: now }];
    let a = old;
    let b = now;
    let itemAttr = attr;
    while (a.kind === 'array' && b.kind === 'array') {
      a = a.items;
      b = b.items;
      itemAttr += '[]';
    }
    if (a.kind === 'shape' && b.kind === 'shape')
      return this.diffShapes(a.name, b.name, itemAttr, attr, location, oldLocation);
    if (a.kind === 'object' || b.kind === 'object' || a.kind === 'shape' || b.kind === 'shape') return [];
    if (a.kind === 'array' || b.kind === 'array') return []; // equal skeletons: unreachable
    const changes: RelChange[] = [];
    if (a.format !== b.format)
      changes.push({
        kind: 'format-changed',
        attr,
        location,
        oldLocation,
        before: a.format,
        after: b.format,
      });
    if (!sameEnum(a.enum, b.enum)) {
      changes.push({
        kind: 'enum-changed',
        attr,
        location,
        oldLocation,
        scalar: b.kind,
        before: a.enum,
        after: b.enum,
      });
    }
    return changes;
  }

  private diffShapes(
    oldName: string,
    nowName: string,
    itemAttr: string,
    attr: string,
    location: SourceLocation,
    oldLocation: SourceLocation,
  ): RelChange[] {
    const oldShape = this.before.shapes[oldName]!;
    const nowShape = this.after.shapes[nowName]!;
    const changes: RelChange[] = [];
    if ((oldShape.description ?? '') !== (nowShape.description ?? '')) {
      changes.push({
        kind: 'text-changed',
        text: 'shape-description',
        attr,
        location: nowShape.source,
        oldLocation: oldShape.source,
        via: { shape: nowName, attr: null },
        before: oldShape.description,
        after: nowShape.description,
      });
    }
    const key = `${oldName}\0${nowName}`;
    let relative = this.memo.get(key);
    if (!relative) {
      // A recursive shape compared with itself again adds nothing new: stop there.
      if (this.stack.includes(key)) {
        this.cycleHit = true;
        return changes;
      }
      const outerCycle = this.cycleHit;
      this.cycleHit = false;
      this.stack.push(key);
      relative = this.diffFields(oldShape.fields, nowShape.fields, '');
      this.stack.pop();
      // Only a result computed without cutting a cycle short is complete enough to reuse elsewhere.
      if (!this.cycleHit) this.memo.set(key, relative);
      this.cycleHit = this.cycleHit || outerCycle;
    }
    for (const change of relative) {
      changes.push({
        ...change,
        ...(change.kind === 'field-renamed' ? { toAttr: join(itemAttr, change.toAttr) } : {}),
        attr: join(itemAttr, change.attr!),
        location: change.location ?? location,
        oldLocation: change.oldLocation ?? oldLocation,
        // The innermost shape: a change inside `Account` reached through `Ledger` is `Account`'s.
        via: change.via ?? { shape: nowName, attr: change.attr },
      } as RelChange);
    }
    return changes;
  }
}

/** The type with shape names erased: equal skeletons mean the same JSON layout at this level. */
function skeleton(type: FieldType): string {
  switch (type.kind) {
    case 'array':
      return `[${skeleton(type.items)}]`;
    case 'shape':
      return '{fields}';
    default:
      return type.kind;
  }
}

function sameEnum(a?: readonly EnumValue[], b?: readonly EnumValue[]): boolean {
  if (!a || !b) return a === b;
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((value) => set.has(value));
}

function join(prefix: string, name: string): string {
  return prefix ? `${prefix}.${name}` : name;
}
