import type { Catalogue } from '../../model.js';
import { entryDigest } from '../../model-digest.js';
import type { ComponentEntry } from '../../schema/components.js';

// The document values built on demand (`Deferred`), and the checks that decide whether a document can
// be written entry by entry (see document-text.ts).

/**
 * A document value built on demand, identified by `digest` (which must cover everything `build`
 * reads): when the last build's text of the entry can be copied, it is never built. `build` returns
 * objects of its own, shared with nothing else in the document (yaml would write a shared one as an
 * alias); it is called again whenever the value is needed again (nothing is held once written).
 */
export class Deferred {
  constructor(
    private readonly id: string,
    private readonly make: () => unknown,
  ) {}
  get digest(): string {
    return this.id;
  }
  build(): unknown {
    return this.make();
  }
}

/**
 * Defers each event's and shape's entry in `section`, under the digest of its part of the model: its
 * first 132 bits (22 base64 characters), plenty to tell one entry's model from another's.
 */
export function modelEntries(model: Catalogue, section = 'components'): ComponentEntry {
  return (kind, name, build) => new ModelEntry(model, section, kind, name, build);
}

const NOTHING = () => undefined;

/**
 * An event's or shape's entry (`modelEntries`), which makes its digest when asked, and builds
 * from its name: a document defers four entries per event, held while it is written, and an id
 * string and a closure apiece were much of what an edit's documents allocated (see docs/decisions/0006).
 */
class ModelEntry extends Deferred {
  constructor(
    private readonly model: Catalogue,
    private readonly section: string,
    private readonly kind: 'event' | 'shape',
    private readonly name: string,
    private readonly from: (name: string) => unknown,
  ) {
    super('', NOTHING);
  }
  override get digest(): string {
    const { model, kind, name } = this;
    return `${this.section}:${kind}:${entryDigest(kind === 'event' ? model.events : model.shapes, name).slice(0, 22)}`;
  }
  override build(): unknown {
    return this.from(this.name);
  }
}

/** Every `Deferred` in `value` built: the plain value the whole writers take (copied only where one was). */
export function settle(value: unknown): unknown {
  if (value instanceof Deferred) return settle(value.build());
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map(settle);
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    const settled = settle(child);
    if (settled !== child) copy ??= { ...(value as Record<string, unknown>) };
    if (copy) copy[key] = settled;
  }
  return copy ?? value;
}

/** A non-empty plain object: written as a block map (an empty one is `{}`). */
export function isBlockMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.keys(value).length > 0;
}

/**
 * Whether an object is reached twice, or is in `seen` or `outside` (`seen` gathers what was reached; a
 * `Deferred` is looked into when built).
 */
export function hasSharedObjects(
  root: unknown,
  seen = new Set<object>(),
  outside?: ReadonlySet<object>,
): boolean {
  if (root === null || typeof root !== 'object' || root instanceof Deferred) return false;
  // Only objects to look into are stacked: a document's maps of 10,000 deferred entries each are
  // passed over, not pushed and popped.
  const stack: object[] = [root];
  const look = (child: unknown) => {
    if (child !== null && typeof child === 'object' && !(child instanceof Deferred)) stack.push(child);
  };
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (seen.has(value) || outside?.has(value)) return true;
    seen.add(value);
    // Not `Object.values`: a document's maps hold 10,000 entries, each map a new array of them.
    if (Array.isArray(value)) for (const child of value) look(child);
    else for (const key in value) look((value as Record<string, unknown>)[key]);
  }
  return false;
}
