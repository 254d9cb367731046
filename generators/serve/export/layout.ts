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

/** One file of a release: its path in the release folder (`/`-separated), its route and its body. */
export interface ExportFile {
  file: string;
  route: ExportedRoute;
  body: Buffer;
}

/** The file name a folder route's body takes. */
export const INDEX_FILE = 'index.json';

/** A decoded segment every host stores under its own name (no `/`, no `.` or `..`, nothing to escape). */
const SAFE_SEGMENT = /^(?!\.\.?$)[A-Za-z0-9._+~-]+$/;

/** Places each route's body in a file; `bodyOf` gives the body (what `serve` answers). */
export function layOut(
  routes: readonly ExportedRoute[],
  bodyOf: (route: ExportedRoute) => Buffer,
): ExportFile[] {
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
    return { file: folders.has(path) ? `${path}/${INDEX_FILE}` : path, route, body: bodyOf(route) };
  });
}

/** A release's id: the first 16 hex digits of the sha256 of its files (names and bodies). */
export function releaseId(files: readonly ExportFile[]): string {
  const hash = createHash('sha256');
  for (const { file, body } of [...files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))) {
    hash.update(`${file}\0${body.length}\0`);
    hash.update(body);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * `_headers` (the syntax of Netlify and Cloudflare Pages), for a host whose site root is the release
 * folder: the media type for every path, and each route's `cache-control` by its exact request path.
 */
export function headersFile(files: readonly ExportFile[]): string {
  const lines = ['/*', `  Content-Type: ${CONTENT_TYPE}`, '  X-Content-Type-Options: nosniff'];
  for (const { route } of files)
    lines.push(requestPath(route), `  Cache-Control: ${CACHE_CONTROL[route.cache]}`);
  return `${lines.join('\n')}\n`;
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
export function objectsFile(files: readonly ExportFile[]): string {
  const objects = files.map(({ file, route }) => ({
    key: route.segments.join('/'),
    file,
    contentType: CONTENT_TYPE,
    cacheControl: CACHE_CONTROL[route.cache],
  }));
  return `${JSON.stringify({ objects }, null, 1)}\n`;
}
