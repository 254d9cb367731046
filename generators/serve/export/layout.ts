import { createHash } from 'node:crypto';
import { CONTENT_TYPE } from '../send.js';
import { type CacheClass, type ExportedRoute, requestPath } from './routes.js';

/**
 * Where each route of a static registry lives, and the headers a host must serve it with. A route is
 * a file at its decoded path (`schemas/ids/7/schema`), or, when it is also the start of other routes
 * (`subjects`, `schemas/ids/7`, `subjects/a-v1/versions/1`), `index.json` in the folder of that path:
 * a host that answers a folder's path with its `index.json` (nginx `try_files $uri $uri/index.json`)
 * serves every route; an object store takes each route as one key (`objects.json`).
 * docs/decisions/0135-static-registry-layout.md says why.
 */

/** The `cache-control` of each cache class. */
export const CACHE_CONTROL: Record<CacheClass, string> = {
  immutable: 'public, max-age=31536000, immutable',
  short: 'public, max-age=60',
};

/** One route in its file: its path in the release folder (`/`-separated). */
export interface PlacedRoute {
  file: string;
  route: ExportedRoute;
}

/** What a release file holds: bytes, or text produced line by line (the manifests, tens of MB at 10k events). */
export type ReleaseContent = Buffer | Iterable<string>;

/** One file of a release. */
export type ReleaseEntry = readonly [file: string, content: ReleaseContent];

/** The file name a folder route's body takes. */
export const INDEX_FILE = 'index.json';

/** A decoded segment every host stores under its own name (no `/`, no `.` or `..`, nothing to escape). */
const SAFE_SEGMENT = /^(?!\.\.?$)[A-Za-z0-9._+~-]+$/;

/** The layout's own version: a release id changes with it, so an older layout is never taken for this one. */
const LAYOUT_VERSION = 'eventry-static-registry-1';

/** Places each route in a file: at its path, or `index.json` in its folder when other routes start with it. */
export function layOut(routes: readonly ExportedRoute[]): PlacedRoute[] {
  const folders = new Set<string>();
  for (const { segments } of routes) {
    for (const segment of segments) {
      // Event keys and ids never fail this (the loader's key pattern); a future route kind might.
      if (!SAFE_SEGMENT.test(segment) || segment === INDEX_FILE) {
        throw new Error(`route segment ${JSON.stringify(segment)} has no safe file name`);
      }
    }
    for (let end = 1; end < segments.length; end++) folders.add(segments.slice(0, end).join('/'));
  }
  return routes.map((route) => {
    const path = route.segments.join('/');
    return { file: folders.has(path) ? `${path}/${INDEX_FILE}` : path, route };
  });
}

/**
 * A release's id: the first 16 hex digits of the sha256 of its files (names and contents, in order)
 * and the layout's version; and the bytes of its files. Read as a stream: no body is kept.
 */
export function releaseId(entries: Iterable<ReleaseEntry>): { id: string; bytes: number } {
  const hash = createHash('sha256').update(`${LAYOUT_VERSION}\0`);
  let bytes = 0;
  for (const [file, content] of entries) {
    hash.update(`${file}\0`);
    for (const chunk of Buffer.isBuffer(content) ? [content] : content) {
      hash.update(chunk);
      bytes += Buffer.byteLength(chunk);
    }
    hash.update('\0');
  }
  return { id: hash.digest('hex').slice(0, 16), bytes };
}

/**
 * `_headers` (the syntax of Netlify and Cloudflare Pages), for a host whose site root is the release
 * folder: the media type for every path, and each route's `cache-control` by its exact request path.
 */
export function* headersLines(placed: readonly PlacedRoute[]): Generator<string> {
  yield `/*\n  Content-Type: ${CONTENT_TYPE}\n  X-Content-Type-Options: nosniff\n`;
  for (const { route } of placed)
    yield `${requestPath(route)}\n  Cache-Control: ${CACHE_CONTROL[route.cache]}\n`;
}

/**
 * `_redirects` (Netlify, Cloudflare Pages): each kind of folder route answered by its `index.json` (a
 * rewrite, status 200; `:name` is one path segment). Those hosts answer a folder with its `index.html`
 * only. The kinds are the folders `layOut` makes of `exportedRoutes` (a test holds every folder route to
 * one of these rules).
 */
export const REDIRECTS = [
  '/subjects',
  '/config',
  '/mode',
  '/subjects/:subject/versions',
  '/subjects/:subject/versions/:version',
  '/schemas/ids/:id',
]
  .map((path) => `${path} ${path}/${INDEX_FILE} 200\n`)
  .join('');

/**
 * `objects.json`: the object-store upload of a release (S3, GCS). Each object's key is its route's
 * decoded path (what S3 and GCS look up for a percent-encoded request), so no index rewrite is needed;
 * `file` is where its body is in the release folder; the metadata are the object's headers.
 */
export function* objectsLines(placed: readonly PlacedRoute[]): Generator<string> {
  yield '{"objects": [';
  let first = true;
  for (const { file, route } of placed) {
    const object = {
      key: route.segments.join('/'),
      file,
      contentType: CONTENT_TYPE,
      cacheControl: CACHE_CONTROL[route.cache],
    };
    yield `${first ? '' : ','}\n ${JSON.stringify(object)}`;
    first = false;
  }
  yield '\n]}\n';
}
