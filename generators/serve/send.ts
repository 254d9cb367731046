import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { json } from './served-state.js';

/** The media type of every Confluent Schema Registry answer. */
export const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

/** The ETag of each body already hashed: the hot routes answer the same buffer every time. */
const etags = new WeakMap<Buffer, string>();

/**
 * The strong ETag of a body: a hash of its bytes only, so every replica serving the same history gives
 * the same tag for the same answer (no size-and-time tag, which differs from machine to machine).
 */
function etagOf(body: Buffer): string {
  let tag = etags.get(body);
  if (tag === undefined) {
    tag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
    etags.set(body, tag);
  }
  return tag;
}

/**
 * Whether an `If-None-Match` header matches `etag`: `*`, or any tag of the list compared weakly
 * (RFC 9110 13.1.2: `W/"x"` matches `"x"`).
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Answers `body` with `status`, as the registry media type unless `type` says otherwise. A successful
 * read (GET or HEAD, 200) carries the body's ETag, and is a 304 without a body when the client's
 * `If-None-Match` names it.
 */
export function send(res: ServerResponse, status: number, body: Buffer, type = CONTENT_TYPE): void {
  const method = res.req?.method;
  if (status === 200 && (method === 'GET' || method === 'HEAD')) {
    const etag = etagOf(body);
    if (noneMatch(res.req.headers['if-none-match'], etag)) {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': type, 'content-length': body.length, etag });
    res.end(body);
    return;
  }
  res.writeHead(status, { 'content-type': type, 'content-length': body.length });
  res.end(body);
}

/** Answers `value` as JSON of the registry media type. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, json(value));
}
