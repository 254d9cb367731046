import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  createReadStream,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { noneMatch } from './send.js';

/**
 * `GET /docs/...` of `eventry serve`: the static docs portal `eventry docs` wrote, with the same
 * strict policy the site is built for (`script-src 'self'`, nothing from elsewhere). Only files inside
 * the site folder (after resolving symbolic links) are served; everything else is a 4xx.
 */

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  // Every page links its Markdown twin (`index.md`) and the site's `llms.txt`.
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The policy every portal answer carries. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'";

/** Whether a request path belongs to the portal. */
export function isDocsPath(url: string | undefined): boolean {
  return url === '/docs' || (url ?? '').startsWith('/docs/') || (url ?? '').startsWith('/docs?');
}

/** Answers a portal request from `siteDir` (GET and HEAD only); a file-system error is a 4xx, never a throw. */
export function serveDocs(req: IncomingMessage, res: ServerResponse, siteDir: string | undefined): void {
  const text = (status: number, body: string) => {
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
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
  if (path.includes('\0')) {
    text(400, 'The request path contains a NUL character.\n');
    return;
  }
  if (path === '/docs') {
    res.writeHead(301, { location: '/docs/' }).end();
    return;
  }
  const found = siteDir === undefined ? undefined : openSiteFile(siteDir, path.slice('/docs'.length));
  if (found === undefined || found === 'no-site') {
    text(404, 'No docs site to serve: run `npm run build` (or `eventry docs`) first.\n');
    return;
  }
  if (typeof found === 'number') {
    text(found, found === 414 ? 'The request path is too long.\n' : 'Not found.\n');
    return;
  }
  const { fd, stat, type } = found;
  // Pages change with the catalogue, so a browser revalidates; the assets every page shares then
  // cost a 304, not a download. The tag is the content's, so every replica gives the same one.
  const etag = contentEtag(fd, stat);
  const headers = {
    'content-security-policy': DOCS_CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
    etag,
  };
  if (noneMatch(req.headers['if-none-match'], etag)) {
    closeSync(fd);
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': type, 'content-length': stat.size });
  if (req.method === 'HEAD') {
    closeSync(fd);
    res.end();
    return;
  }
  const stream = createReadStream('', { fd, start: 0, end: Math.max(0, stat.size - 1) });
  // A read that fails half-way (the file shrank, an I/O error) cuts this answer, not the server.
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  if (stat.size === 0) {
    stream.destroy();
    res.end();
    return;
  }
  stream.pipe(res);
}

/** Content tags of the files already hashed, by device, inode, size and modification time. */
const contentTags = new Map<string, string>();

/** The strong ETag of an open file's bytes (send.ts's `etagOf` of its content), hashed once per version. */
function contentEtag(fd: number, stat: Stats): string {
  const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  let tag = contentTags.get(key);
  if (tag === undefined) {
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (let position = 0; position < stat.size; ) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      hash.update(chunk.subarray(0, read));
      position += read;
    }
    tag = `"${hash.digest('base64url').slice(0, 32)}"`;
    // A bound on what a long-running server keeps: a new site rebuilds the few entries it needs.
    if (contentTags.size >= 10_000) contentTags.clear();
    contentTags.set(key, tag);
  }
  return tag;
}

interface SiteFile {
  fd: number;
  stat: Stats;
  type: string;
}

/**
 * The open file a portal path names, or the status to answer. Both the site folder and the file are
 * resolved through their symbolic links, and the file must lie inside the site: a link that leaves it
 * is a 404, as is any path the file system refuses (ENOTDIR, ELOOP, EACCES); a name too long is a 414.
 */
function openSiteFile(siteDir: string, rest: string): SiteFile | 'no-site' | number {
  let root: string;
  try {
    root = realpathSync(siteDir);
    if (!statSync(join(root, 'index.html')).isFile()) return 'no-site';
  } catch {
    return 'no-site';
  }
  const inside = (file: string) => file === root || file.startsWith(`${root}${sep}`);
  const asked = resolve(root, `.${rest}`);
  if (!inside(asked)) return 404;
  try {
    let real = realpathSync(asked);
    if (!inside(real)) return 404;
    if (!statSync(real).isDirectory()) {
      // `index.html/` names a folder that is not one.
      if (rest.endsWith('/')) return 404;
    } else {
      real = realpathSync(join(real, 'index.html'));
      if (!inside(real)) return 404;
    }
    const type = TYPES[extname(real)];
    if (type === undefined) return 404;
    const fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      const stat = fstatSync(fd);
      if (stat.isFile()) return { fd, stat, type };
    } catch {
      // closed below
    }
    closeSync(fd);
    return 404;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENAMETOOLONG' ? 414 : 404;
  }
}
