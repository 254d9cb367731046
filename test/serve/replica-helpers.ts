import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { compiledToolkitPath, tempDir } from '../helpers.js';

/** A self-signed certificate for 127.0.0.1 and localhost and its key, as files (openssl). */
export function selfSignedCert(): { cert: string; key: string; dir: string } {
  const dir = tempDir('eventry-tls-');
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2']
      .concat(['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'])
      .concat(['-keyout', key, '-out', cert]),
    { stdio: 'ignore' },
  );
  return { cert, key, dir };
}

/** An answer: status, headers and the body as text. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over http or https (`ca`: the certificate to trust), on a connection of its own. */
export function fetchRaw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; ca?: string; body?: string } = {},
): Promise<Answer> {
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false, ca: options.ca },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** An `eventry serve` process of the compiled CLI, once it printed its address. */
export interface ServeProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Its stdout lines (the `serving` line, then the access log). */
  lines: string[];
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Starts `eventry serve --port 0 ARGS` in `cwd` and waits for its `serving` line (no fixed sleep). */
export function spawnServe(cwd: string, args: string[]): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [compiledToolkitPath('scripts/eventry.js'), 'serve', '--port', '0', ...args],
    {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const match = /^eventry: serving (https?:\/\/\S+)$/.exec(line);
      if (match) resolve({ url: match[1]!, child, lines, stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`serve exited ${code} before serving: ${stderr}`)));
  });
}
