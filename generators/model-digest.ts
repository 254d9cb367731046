import { createHash } from 'node:crypto';
import type { Catalogue } from './model.js';

/** Digests of model objects (an event, a shape), computed once per object. */
const digests = new WeakMap<object, string>();

/**
 * A digest of a part of the model (an event, a shape): what an emitter builds from that part alone can
 * be reused while the digest is unchanged (the toolkit is the emit cache's own part of every key). It is
 * the sha256 (base64) of the part's JSON text without its source positions: no emitter writes where
 * a definition is written but its file (`emitted-positions.test.ts` holds every output to that), and
 * a line added above a definition moves it without changing anything built from it (an edit that
 * added a group's description made every event of the group, and their schemas and entries, new).
 */
export function modelDigest(part: object): string {
  let digest = digests.get(part);
  if (digest === undefined) {
    digest = createHash('sha256').update(JSON.stringify(part).replace(POSITIONS, '')).digest('base64');
    digests.set(part, digest);
  }
  return digest;
}

/**
 * The line and column of a `SourceLocation` in a part's JSON text: the model has no other keys of
 * those names, and in a string value (a description) the quotes around them would be escaped.
 */
const POSITIONS = /"(?:line|column)":\d+/g;

/** Records `digest` as `modelDigest(part)`, for a part made from a JSON text whose digest is known. */
export function rememberDigest(part: object, digest: string): void {
  digests.set(part, digest);
}

/** `modelDigest(record[key])`: the digest of one entry of a model record (an event by its key). */
export function entryDigest(record: Readonly<Record<string, object>>, key: string): string {
  return modelDigest(record[key]!);
}

/** The digests `modelDigest` has computed for `model`'s events and shapes, in key order (missing ones undefined). */
export interface ModelDigests {
  events: (string | undefined)[];
  shapes: (string | undefined)[];
}

/** What `modelDigest` knows of `model`, for another thread's copy of it (`ThreadCatalogue`, in the build). */
export function knownDigests(model: Catalogue): ModelDigests {
  return {
    events: Object.keys(model.events).map((key) => digests.get(model.events[key]!)),
    shapes: Object.values(model.shapes).map((shape) => digests.get(shape)),
  };
}

/** `catalogueDigest` by model, computed once per model. */
const catalogueDigests = new WeakMap<Catalogue, string>();

/**
 * A digest of what the catalogue says (sha256, hex): its configuration, groups, shapes and events,
 * without source positions. Unlike `Catalogue.hash` (of the source text, for caches), a comment or a
 * blank line leaves it alone, so the documents that carry it (`x-catalogue-hash`) change only when
 * the catalogue does.
 */
export function catalogueDigest(model: Catalogue): string {
  let digest = catalogueDigests.get(model);
  if (digest === undefined) {
    const hash = createHash('sha256');
    hash.update(JSON.stringify(model.config).replace(POSITIONS, ''));
    hash.update(`\0${JSON.stringify(model.groups).replace(POSITIONS, '')}`);
    for (const key of Object.keys(model.shapes).sort())
      hash.update(`\0${key}\0${modelDigest(model.shapes[key]!)}`);
    for (const key of Object.keys(model.events).sort())
      hash.update(`\0${key}\0${entryDigest(model.events, key)}`);
    digest = hash.digest('hex');
    catalogueDigests.set(model, digest);
  }
  return digest;
}
