import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

/**
 * `GET /docs/...` of `eventry serve`: the static docs portal `eventry docs` wrote, with the same
 * strict policy the site is built for (`script-src 'self'`, nothing from elsewhere). Only files inside
 * the site folder are served; everything else is a 404.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The policy every portal answer carries. */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'";

/** Whether a request path belongs to the portal. */
export function isDocsPath(url: string | undefined): boolean {
  return url === '/docs' || (url ?? '').startsWith('/docs/') || (url ?? '').startsWith('/docs?');
}

/** Answers a portal request from `siteDir` (GET and HEAD only). */
export function serveDocs(req: IncomingMessage, res: ServerResponse, siteDir: string | undefined): void {
  const text = (status: number, body: string) => {
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    text(405, 'The docs portal is read-only.\n');
    return;
  }
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url ?? '/', 'http://docs.invalid').pathname);
  } catch {
    text(400, 'The request path is not a valid URL.\n');
    return;
  }
  if (path === '/docs') {
    res.writeHead(301, { location: '/docs/' }).end();
    return;
  }
  if (siteDir === undefined || !statSync(join(siteDir, 'index.html'), { throwIfNoEntry: false })) {
    text(404, 'No docs site to serve: run `npm run build` (or `eventry docs`) first.\n');
    return;
  }
  const root = resolve(siteDir);
  let file = resolve(root, `.${path.slice('/docs'.length)}`);
  if (file !== root && !file.startsWith(`${root}${sep}`)) {
    text(404, 'Not found.\n');
    return;
  }
  let stat = statSync(file, { throwIfNoEntry: false });
  if (stat?.isDirectory()) {
    file = join(file, 'index.html');
    stat = statSync(file, { throwIfNoEntry: false });
  }
  const type = TYPES[extname(file)];
  if (!stat?.isFile() || type === undefined) {
    text(404, 'Not found.\n');
    return;
  }
  // Pages change with the catalogue, so a browser revalidates; the assets every page shares then
  // cost a 304, not a download.
  const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const headers = {
    'content-security-policy': DOCS_CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
    etag,
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': type, 'content-length': stat.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}
