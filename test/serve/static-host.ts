import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/**
 * A plain static file server, as nginx with `try_files $uri $uri/index.json =404` and the export's
 * `_headers` is one: it decodes the request path, answers the file there (or `index.json` in the folder
 * there) byte for byte, with the headers `_headers` gives that path (`/*` and exact paths, as Netlify and
 * Cloudflare Pages read it), and `404.json` for anything else. It knows nothing of the registry.
 */
export interface StaticHost {
  url: string;
  /** Every request path it was asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

/** The headers of `_headers` by path pattern (`/*` or an exact path). */
function readHeadersFile(text: string): Map<string, Record<string, string>> {
  const rules = new Map<string, Record<string, string>>();
  let current: Record<string, string> | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (!/^\s/.test(line)) {
      current = rules.get(line) ?? {};
      rules.set(line, current);
      continue;
    }
    const [name, ...value] = line.trim().split(':');
    current![name!.toLowerCase()] = value.join(':').trim();
  }
  return rules;
}

/** Serves `root` (following symbolic links: pass the export's `current`) on 127.0.0.1, a free port. */
export async function startStaticHost(root: string): Promise<StaticHost> {
  const rules = readHeadersFile(readFileSync(join(root, '_headers'), 'utf8'));
  const asked: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://static.invalid').pathname;
    asked.push(path);
    let file = join(root, normalize(decodeURIComponent(path)));
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.json');
    const found = existsSync(file) && statSync(file).isFile();
    const headers = { ...rules.get('/*'), ...(found ? rules.get(path) : {}) };
    const body = readFileSync(found ? file : join(root, '404.json'));
    res.writeHead(found ? 200 : 404, { ...headers, 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
