import type { Catalogue, EventVersion, Field, FieldType } from '../model.js';

/** A field as written once in the source: an event's or a shape's own field (inherited copies left out). */
export class FieldUse {
  constructor(
    readonly field: Field,
    readonly owner: { kind: 'event' | 'shape'; name: string },
  ) {}

  /** `event account.created-v1 field user_email`: the finding subject (made only for a finding). */
  get subject(): string {
    return `${this.owner.kind} ${this.owner.name} field ${this.field.name}`;
  }
}

/** What several rules read, computed once per lint. */
export interface CatalogueIndex {
  /** Every field as written, in a stable order (events by key, then shapes by name). */
  uses: FieldUse[];
  /** `uses` by field name. */
  byName: Map<string, FieldUse[]>;
  /** The versions of each event type, oldest first. */
  versions: Map<string, EventVersion[]>;
}

/** Indexes a catalogue for the rules. */
export function indexCatalogue(catalogue: Catalogue): CatalogueIndex {
  const uses: FieldUse[] = [];
  for (const key of Object.keys(catalogue.events).sort()) {
    for (const field of catalogue.events[key]!.fields) {
      // An inherited field is written in (and reported at) the definition it came from.
      if (field.inheritedFrom !== undefined) continue;
      uses.push(new FieldUse(field, { kind: 'event', name: key }));
    }
  }
  for (const name of Object.keys(catalogue.shapes).sort()) {
    for (const field of catalogue.shapes[name]!.fields) {
      if (field.inheritedFrom !== undefined) continue;
      uses.push(new FieldUse(field, { kind: 'shape', name }));
    }
  }
  const byName = new Map<string, FieldUse[]>();
  for (const use of uses) {
    const list = byName.get(use.field.name);
    if (list) list.push(use);
    else byName.set(use.field.name, [use]);
  }
  const versions = new Map<string, EventVersion[]>();
  for (const event of Object.values(catalogue.events)) {
    const list = versions.get(event.type);
    if (list) list.push(event);
    else versions.set(event.type, [event]);
  }
  for (const list of versions.values()) list.sort((a, b) => compareVersions(a.version, b.version));
  return { uses, byName, versions };
}

/** The major number of a version (`v3` is 3, `2.1.0` is 2). */
export function majorOf(version: string): number {
  const v = /^v(\d+)$/.exec(version);
  return Number(v ? v[1] : version.split('.')[0]);
}

/** Orders `vN` and semver versions numerically. */
function compareVersions(a: string, b: string): number {
  const parts = (version: string): number[] =>
    version
      .replace(/^v/, '')
      .split(/[.+-]/)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : 0));
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The innermost type of an array type (the type itself otherwise). */
export function innermost(type: FieldType): FieldType {
  let inner = type;
  while (inner.kind === 'array') inner = inner.items;
  return inner;
}

/** `event account.created-v1` or `shape Ledger`, for messages. */
export function ownerText(use: FieldUse): string {
  return `${use.owner.kind} \`${use.owner.name}\``;
}
