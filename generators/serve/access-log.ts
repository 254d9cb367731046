import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The query parameters of the Confluent API (and of eventry's own routes) whose values are logged as
 * they came; the value of any other parameter is masked, so a token or a signature a client or a
 * proxy put in a URL never reaches the log.
 */
const LOGGED_PARAMETERS = new Set([
  'subjectPrefix',
  'latestOnly',
  'verbose',
  'deleted',
  'deletedOnly',
  'normalize',
  'subject',
  'lookupDeletedSchema',
  'lookupDeletedSubjects',
  'defaultToGlobal',
  'fetchMaxId',
  'format',
  'offset',
  'limit',
]);

/** What stands for a masked value. */
const MASK = '***';

/** A request id a client or a load balancer sent (`x-request-id`) is kept when it is this plain. */
const PLAIN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request path as the log shows it: credentials of an absolute-form URL (`http://user:pass@host/`)
 * and the value of every query parameter outside `LOGGED_PARAMETERS` replaced by `***`. Works on the
 * raw text, so an undecodable path is logged as it came, masked the same way.
 */
export function maskedPath(url: string): string {
  const credentials = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, `$1${MASK}@`);
  const query = credentials.indexOf('?');
  if (query < 0) return credentials;
  const pairs = credentials
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      let name = pair.slice(0, equals);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // an undecodable name is no known parameter: its value is masked
      }
      return LOGGED_PARAMETERS.has(name) ? pair : `${pair.slice(0, equals)}=${MASK}`;
    });
  return `${credentials.slice(0, query)}?${pairs.join('&')}`;
}

/** The request's id: the client's `x-request-id` when plain, else a new one; answered in the same header. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && PLAIN_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/** Counts the body bytes a response writes (what a client receives after the headers), however written. */
function countBytes(res: ServerResponse): () => number {
  let bytes = 0;
  const count = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === 'string')
      bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    count(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') count(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
  }) as typeof res.end;
  return () => bytes;
}

/**
 * One JSON line per request once its answer is sent (`--access-log`): time, request id, method, path
 * (masked: `maskedPath`), status, body bytes sent (none for HEAD or a 304) and duration in ms. A
 * request whose connection closed before its answer was complete is logged too, with `aborted: true`.
 * No header is logged, so neither is a credential.
 */
export function logAccess(req: IncomingMessage, res: ServerResponse, log: (line: string) => void): void {
  const started = process.hrtime.bigint();
  const id = requestId(req, res);
  const bytes = countBytes(res);
  const line = (aborted: boolean) =>
    log(
      JSON.stringify({
        time: new Date().toISOString(),
        id,
        method: req.method,
        path: maskedPath(req.url ?? ''),
        status: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        bytes: req.method === 'HEAD' ? 0 : bytes(),
        ...(aborted ? { aborted: true } : {}),
      }),
    );
  res.once('finish', () => line(false));
  res.once('close', () => {
    if (!res.writableFinished) line(true);
  });
}
