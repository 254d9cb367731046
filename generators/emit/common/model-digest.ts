import { createHash } from 'node:crypto';
import type { Catalogue } from '../../model.js';

/** Digests of model objects (an event, a shape), computed once per object. */
const digests = new WeakMap<object, string>();

/**
 * A digest of a part of the model (an event, a shape): what an emitter builds from that part alone can
 * be reused while the digest is unchanged (the toolkit is the emit cache's own part of every key).
 */
export function modelDigest(part: object): string {
  let digest = digests.get(part);
  if (digest === undefined) {
    digest = createHash('sha256').update(JSON.stringify(part)).digest('base64');
    digests.set(part, digest);
  }
  return digest;
}

/** The digests `modelDigest` has computed for `model`'s events and shapes, in key order (missing ones undefined). */
export interface ModelDigests {
  events: (string | undefined)[];
  shapes: (string | undefined)[];
}

/** What `modelDigest` knows of `model`, for another thread's copy of it (`adoptDigests`). */
export function knownDigests(model: Catalogue): ModelDigests {
  return {
    events: Object.values(model.events).map((event) => digests.get(event)),
    shapes: Object.values(model.shapes).map((shape) => digests.get(shape)),
  };
}

/** Takes the digests another thread computed for its copy of `model` (same keys, same order). */
export function adoptDigests(model: Catalogue, known: ModelDigests): void {
  Object.values(model.events).forEach((event, i) => {
    const digest = known.events[i];
    if (digest !== undefined) digests.set(event, digest);
  });
  Object.values(model.shapes).forEach((shape, i) => {
    const digest = known.shapes[i];
    if (digest !== undefined) digests.set(shape, digest);
  });
}
