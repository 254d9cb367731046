import { type Catalogue, type Field, type FieldType, type SourceLocation, typeNotation } from '../model.js';
import type { EnumValue, RelChange } from './model-change.js';

/**
 * Compares field lists, expanding named shapes into their fields at any depth. The comparison of a
 * pair of shapes is the same wherever they are used, so it is computed once and re-rooted: diffing
 * stays linear in the size of the catalogue even when every event uses the same shapes.
 */
export class ShapeDiffer {
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
