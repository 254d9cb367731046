import { describe, expect, it } from 'vitest';
import {
  packCatalogue,
  packValue,
  ThreadCatalogue,
  unpackValue,
} from '../../../generators/execute/fast/transfer.js';
import { fixturePath, loadValid } from '../../helpers.js';

describe('a model sent to a worker thread keeps its null-prototype maps', () => {
  it('event and shape maps keyed `constructor`, `toString` or `__proto__` read only their own entries', () => {
    const events = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(events, '__proto__', { value: { key: '__proto__' }, enumerable: true });
    const shared = { kind: 'string' };
    const model = {
      events,
      shapes: Object.assign(Object.create(null), { toString: { name: 'toString', type: shared } }),
      list: [Object.create(null), { type: shared, gone: undefined }],
    };
    const copy = unpackValue<typeof model>(packValue(model));
    expect(Object.getPrototypeOf(copy.events)).toBeNull();
    expect(Object.getPrototypeOf(copy.shapes)).toBeNull();
    expect(Object.getPrototypeOf(copy.list[0])).toBeNull();
    expect(Object.getPrototypeOf(copy.list[1])).toBe(Object.prototype);
    expect(copy.events.constructor).toBeUndefined();
    expect(Object.keys(copy.events)).toEqual(['__proto__']);
    expect((copy.shapes as Record<string, unknown>).toString).toEqual({ name: 'toString', type: shared });
    expect(copy.list[1]).toHaveProperty('gone', undefined);
    // One object in two places stays one object (as the loader shares them).
    const shapes = new Map(Object.entries(copy.shapes as Record<string, { type: unknown }>));
    expect(copy.list[1]!.type).toBe(shapes.get('toString')!.type);
  });

  it('a loaded catalogue comes back equal, prototype for prototype', () => {
    const model = loadValid(fixturePath('small'));
    const copy = unpackValue<typeof model>(packValue(model));
    expect(copy).toStrictEqual(model);
    expect(Object.getPrototypeOf(copy.events)).toBeNull();
    expect(Object.getPrototypeOf(copy.shapes)).toBeNull();
  });
});

/** The paths below `value` read through a getter or written through a setter: none in plain data. */
function accessors(value: unknown, path = 'model', seen = new Set<object>()): string[] {
  if (value === null || typeof value !== 'object' || seen.has(value)) return [];
  seen.add(value);
  const found: string[] = [];
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
    if (descriptor.get !== undefined || descriptor.set !== undefined) found.push(`${path}.${key}`);
    else found.push(...accessors(descriptor.value, `${path}.${key}`, seen));
  }
  return found;
}

describe('a catalogue sent to the build threads', () => {
  it('comes back whole equal, prototype for prototype, in the same key order, plain', () => {
    const model = loadValid(fixturePath('small'));
    const copy = new ThreadCatalogue(packCatalogue(model)).whole();
    expect(Object.keys(copy.events)).toEqual(Object.keys(model.events));
    expect(copy).toStrictEqual(model);
    expect(accessors(copy)).toEqual([]);
    expect(Object.getPrototypeOf(copy.events)).toBeNull();
    expect(Object.getPrototypeOf(copy.shapes)).toBeNull();
  });

  it('gives a group’s task the model with that group’s events only, plain', () => {
    const model = loadValid(fixturePath('small'));
    expect(model.groups.length).toBeGreaterThan(1);
    const [first] = model.groups;
    const part = new ThreadCatalogue(packCatalogue(model)).ofGroup(first!.slug);
    const own = Object.keys(model.events).filter((key) => first!.events.includes(key));
    expect(Object.keys(part.events)).toEqual(own);
    for (const key of own) expect(part.events[key]).toStrictEqual(model.events[key]);
    expect(part.groups).toStrictEqual(model.groups);
    expect(part.shapes).toStrictEqual(model.shapes);
    expect(accessors(part)).toEqual([]);
  });

  it('keeps events keyed `__proto__` or `constructor` as their own entries', () => {
    const model = loadValid(fixturePath('small'));
    const [key] = Object.keys(model.events);
    const events = Object.create(null) as typeof model.events;
    for (const name of ['__proto__', 'constructor'])
      Object.defineProperty(events, name, { value: { ...model.events[key!]!, key: name }, enumerable: true });
    const copy = new ThreadCatalogue(packCatalogue({ ...model, events })).whole();
    expect(Object.keys(copy.events)).toEqual(['__proto__', 'constructor']);
    const keyOf = (name: string) => copy.events[name]?.key;
    expect(keyOf('__proto__')).toBe('__proto__');
    expect(keyOf('constructor')).toBe('constructor');
  });
});

describe('model digests computed on one thread serve the other thread’s copy', () => {
  it('the digests sent with the catalogue are the ones its copy would compute itself', async () => {
    const { knownDigests, modelDigest } = await import('../../../generators/model-digest.js');
    const model = loadValid(fixturePath('small'));
    const [firstKey] = Object.keys(model.events);
    const digest = modelDigest(model.events[firstKey!]!);
    const known = knownDigests(model);
    expect(known.events[0]).toBe(digest);
    // Only what was computed is sent.
    expect(known.events.slice(1).every((d) => d === undefined)).toBe(true);
    // The copy takes the digest it is sent rather than computing it (a digest no event has shows it).
    const sent = { ...known, events: ['sent-digest', ...known.events.slice(1)] };
    const adopted = new ThreadCatalogue(packCatalogue(model), sent).whole();
    expect(modelDigest(adopted.events[firstKey!]!)).toBe('sent-digest');
    const fresh = new ThreadCatalogue(packCatalogue(model)).whole();
    expect(modelDigest(fresh.events[firstKey!]!)).toBe(digest);
  });
});
