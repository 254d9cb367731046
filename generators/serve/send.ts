import type { ServerResponse } from 'node:http';
import { json } from './served-state.js';

/** The media type of every Confluent Schema Registry answer. */
export const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

/** Answers `body` with `status`, as the registry media type unless `type` says otherwise. */
export function send(res: ServerResponse, status: number, body: Buffer, type = CONTENT_TYPE): void {
  res.writeHead(status, { 'content-type': type, 'content-length': body.length });
  res.end(body);
}

/** Answers `value` as JSON of the registry media type. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, json(value));
}
