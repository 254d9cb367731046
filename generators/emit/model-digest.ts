import { createHash } from 'node:crypto';

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
