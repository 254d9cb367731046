import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';

/**
 * The static export (`eventry registry export`) behind nginx over TLS: the "plain static server" of
 * issue 47, configured as generators/schema-registry/README.md documents it (Debian's nginx, its
 * default `worker_processes auto`). Absent nginx, the bench says so instead of a row.
 */

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

export interface StaticExportHost {
  url: string;
  child: ChildProcess;
}

/** Writes the export of the current repository's history into `dir/export` with the built CLI. */
export function exportRegistry(cli: string, cwd: string, dir: string): string {
  const out = join(dir, 'export');
  execFileSync(process.execPath, [cli, 'registry', 'export', '--out', out], { cwd, stdio: 'ignore' });
  return join(out, 'current');
}

function nginxConfig(root: string, dir: string, port: number, cert: string, key: string): string {
  return `worker_processes auto;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'nginx-error.log')};
daemon off;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp;
  uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;
  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${cert};
    ssl_certificate_key ${key};
    location / {
      root ${root};
      default_type application/vnd.schemaregistry.v1+json;
      types { }
      try_files $uri $uri/index.json =404;
    }
  }
}
`;
}

/** Starts nginx over the export on a free-ish port; resolves once it answers `/subjects`. */
export async function startNginx(
  root: string,
  dir: string,
  port: number,
  cert: string,
  key: string,
): Promise<StaticExportHost> {
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(root, dir, port, cert, key));
  const child = spawn(NGINX!, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `https://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited ${child.exitCode}: see ${dir}/nginx-error.log`);
    if (await answers(`${url}/subjects`, cert)) return { url, child };
    await new Promise((done) => setTimeout(done, 100));
  }
  child.kill('SIGQUIT');
  throw new Error('nginx did not answer /subjects within 10 s');
}

/** Whether `url` answers 200 over TLS with the run's self-signed certificate as the authority. */
function answers(url: string, cert: string): Promise<boolean> {
  return new Promise((done) => {
    const request = get(url, { ca: readFileSync(cert) }, (response) => {
      response.resume();
      done(response.statusCode === 200);
    });
    request.on('error', () => done(false));
  });
}

/** A process and its children (nginx's workers), from /proc. */
export function processTree(pid: number): number[] {
  const children = join('/proc', String(pid), 'task', String(pid), 'children');
  const kids = existsSync(children) ? readFileSync(children, 'utf8').trim().split(/\s+/).filter(Boolean) : [];
  return [pid, ...kids.flatMap((kid) => processTree(Number(kid)))];
}
