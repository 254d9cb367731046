import { describe, expect, it } from 'vitest';
import {
  packCatalogue,
  packValue,
  unpackCatalogue,
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

describe('a catalogue sent to the build threads', () => {
  it('comes back equal, prototype for prototype, in the same key order', () => {
    const model = loadValid(fixturePath('small'));
    const copy = unpackCatalogue(packCatalogue(model));
    expect(Object.keys(copy.events)).toEqual(Object.keys(model.events));
    expect(copy).toStrictEqual(model);
    expect(Object.getPrototypeOf(copy.events)).toBeNull();
    expect(Object.getPrototypeOf(copy.shapes)).toBeNull();
  });

  it('unpacks a group’s events when one of them is first read, and no other group’s', () => {
    const model = loadValid(fixturePath('small'));
    expect(model.groups.length).toBeGreaterThan(1);
    const [first, second] = model.groups;
    const copy = unpackCatalogue(packCatalogue(model));
    const unpacked = (key: string) => Object.getOwnPropertyDescriptor(copy.events, key)!.get === undefined;
    expect(Object.keys(copy.events).some(unpacked)).toBe(false);
    expect(copy.events[first!.events[0]!]).toStrictEqual(model.events[first!.events[0]!]);
    expect(first!.events.every(unpacked)).toBe(true);
    expect(second!.events.some(unpacked)).toBe(false);
  });

  it('keeps events keyed `__proto__` or `constructor` as their own entries', () => {
    const model = loadValid(fixturePath('small'));
    const [key] = Object.keys(model.events);
    const events = Object.create(null) as typeof model.events;
    for (const name of ['__proto__', 'constructor'])
      Object.defineProperty(events, name, { value: { ...model.events[key!]!, key: name }, enumerable: true });
    const copy = unpackCatalogue(packCatalogue({ ...model, events }));
    expect(Object.keys(copy.events)).toEqual(['__proto__', 'constructor']);
    const keyOf = (name: string) => copy.events[name]?.key;
    expect(keyOf('__proto__')).toBe('__proto__');
    expect(keyOf('constructor')).toBe('constructor');
  });
});

describe('model digests computed on one thread serve the other thread’s copy', () => {
  it('the digests sent with the catalogue are the ones its copy would compute itself', async () => {
    const { entryDigest, knownDigests, modelDigest } = await import('../../../generators/model-digest.js');
    const model = loadValid(fixturePath('small'));
    const [firstKey] = Object.keys(model.events);
    const digest = modelDigest(model.events[firstKey!]!);
    const known = knownDigests(model);
    expect(known.events[0]).toBe(digest);
    // Only what was computed is sent.
    expect(known.events.slice(1).every((d) => d === undefined)).toBe(true);
    const adopted = unpackCatalogue(packCatalogue(model), known);
    // Known without unpacking the event.
    expect(entryDigest(adopted.events, firstKey!)).toBe(digest);
    expect(Object.getOwnPropertyDescriptor(adopted.events, firstKey!)!.get).toBeDefined();
    const fresh = unpackCatalogue(packCatalogue(model));
    expect(modelDigest(adopted.events[firstKey!]!)).toBe(modelDigest(fresh.events[firstKey!]!));
    expect(modelDigest(fresh.events[firstKey!]!)).toBe(digest);
  });
});
