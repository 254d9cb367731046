import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * One JSON line per request once its answer is sent. `bytes` counts the body bytes written (what a
 * client receives after the headers; none for HEAD), whatever route wrote them and however.
 */
export function logAccess(req: IncomingMessage, res: ServerResponse, log: (line: string) => void): void {
  const started = process.hrtime.bigint();
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
  res.once('finish', () => {
    log(
      JSON.stringify({
        time: new Date().toISOString(),
        method: req.method,
        path: req.url,
        status: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        bytes: req.method === 'HEAD' ? 0 : bytes,
      }),
    );
  });
}
