import { describe, expect, it } from 'vitest';
import { packValue, unpackValue } from '../../../generators/build/transfer.js';
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

describe('model digests computed on one thread serve the other thread’s copy', () => {
  it('the digests adopted for the unpacked copy are the ones it would compute itself', async () => {
    const { adoptDigests, knownDigests, modelDigest } = await import('../../../generators/model-digest.js');
    const model = loadValid(fixturePath('small'));
    const [firstKey] = Object.keys(model.events);
    const digest = modelDigest(model.events[firstKey!]!);
    const known = knownDigests(model);
    expect(known.events[0]).toBe(digest);
    // Only what was computed is sent.
    expect(known.events.slice(1).every((d) => d === undefined)).toBe(true);
    const adopted = unpackValue<typeof model>(packValue(model));
    adoptDigests(adopted, known);
    const fresh = unpackValue<typeof model>(packValue(model));
    expect(modelDigest(adopted.events[firstKey!]!)).toBe(modelDigest(fresh.events[firstKey!]!));
    expect(modelDigest(fresh.events[firstKey!]!)).toBe(digest);
  });
});
