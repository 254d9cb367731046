import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { type Catalogue, type Field, typeNotation } from '../../../generators/model.js';

/**
 * The strict policy the docs portal must work under, as a static host would send it: `script-src 'self'`
 * (no inline script, no eval) and nothing but the site's own origin.
 */
export const PORTAL_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'";

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

/** A running static host: its base URL and how to stop it. */
export interface PortalServer {
  base: string;
  close(): void;
}

/**
 * Serves built sites as a static host does, with `PORTAL_CSP` on every response: `mounts` maps a URL
 * prefix (`/`, `/small/`) to a site folder, longest prefix first; `extra` maps exact URL paths to files
 * served beside the sites (same origin, so the policy allows them).
 */
export async function servePortal(
  mounts: Record<string, string>,
  extra: Record<string, string> = {},
): Promise<PortalServer> {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const server: Server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    let file: string | undefined = Object.hasOwn(extra, path) ? extra[path] : undefined;
    if (!file) {
      if (path.endsWith('/')) path += 'index.html';
      const prefix = prefixes.find((candidate) => path.startsWith(candidate));
      if (prefix !== undefined) {
        const folder = mounts[prefix]!;
        const candidate = normalize(join(folder, path.slice(prefix.length - 1)));
        if (candidate.startsWith(folder) && statSync(candidate, { throwIfNoEntry: false })?.isFile())
          file = candidate;
      }
    }
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-security-policy': PORTAL_CSP,
    });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

/**
 * Every field row an event page must show, as `path|required|type`: shape fields expanded in place
 * (a shape inside itself once), `[]` after each array level (`lines[].amount`).
 */
export function expectedRows(
  catalogue: Catalogue,
  fields: readonly Field[],
  prefix = '',
  shapes: string[] = [],
): string[] {
  const rows: string[] = [];
  for (const field of fields) {
    const path = `${prefix}${field.name}`;
    rows.push(`${path}|${field.required}|${typeNotation(field.type)}`);
    let type = field.type;
    let marks = '';
    while (type.kind === 'array') {
      type = type.items;
      marks += '[]';
    }
    if (type.kind === 'shape' && !shapes.includes(type.name)) {
      rows.push(
        ...expectedRows(catalogue, catalogue.shapes[type.name]!.fields, `${path}${marks}.`, [
          ...shapes,
          type.name,
        ]),
      );
    }
  }
  return rows;
}
