import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { machineLine, median } from './measure.js';
import { exportRegistry, NGINX, processTree, startNginx } from './static-export-host.js';

/**
 * `eventry serve` in the setting of the cross-registry benchmark the Apicurio project published
 * (Apicurio/apicurio-registry#9887: one registry replica, 2 CPUs, 2 GiB, TLS, 100 clients, immutable
 * lookups by id and latest-by-subject): here TLS terminated by `eventry serve --tls-cert` itself, the
 * seed catalogue's history, autocannon with 100 connections on the same 2-CPU machine.
 */

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');
const CONNECTIONS = 100;
const WARM_UP_SECONDS = 5;
const SECONDS = 10;
const ROUNDS = 3;

/** The peer: a bare `node:https` server answering one fixed buffer (the same bytes as a schema by id). */
const BARE_SERVER = `
const { createServer } = require('node:https');
const { readFileSync } = require('node:fs');
const [body, cert, key] = process.argv.slice(1).map((file) => readFileSync(file));
const server = createServer({ cert, key }, (req, res) => {
  res.writeHead(200, { 'content-type': 'application/vnd.schemaregistry.v1+json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log('listening https://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

interface Started {
  url: string;
  child: ChildProcess;
}

/** Spawns a server process and waits for its line with the URL. */
function start(args: string[], ready: RegExp): Promise<Started> {
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = ready.exec(line);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before it was ready`)));
  });
}

function stop(server: Started): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

/** Resident and peak resident memory of a process (MiB), from /proc. */
function memoryOf(root: number): { rss: number; peak: number } {
  let rss = 0;
  let peak = 0;
  for (const pid of processTree(root)) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    rss += kib('VmRSS') / 1024;
    peak += kib('VmHWM') / 1024;
  }
  return { rss, peak };
}

/** A self-signed certificate for 127.0.0.1 made for the run (openssl), as files in `dir`. */
function selfSigned(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'],
      ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      ...['-keyout', key, '-out', cert],
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** CPU seconds a process has used so far (user + system), from /proc (clock ticks of 1/100 s). */
function cpuSecondsOf(root: number): number {
  let seconds = 0;
  for (const pid of processTree(root)) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    seconds += (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return seconds;
}

interface Load {
  rps: number;
  /** Requests answered per CPU second the server process used: what sharing the machine does not change. */
  perCpu: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(server: Started, paths: string[], duration = SECONDS): Promise<Load> {
  const cpuBefore = cpuSecondsOf(server.child.pid!);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration,
    requests: paths.map((path) => ({ path })),
  });
  const cpu = cpuSecondsOf(server.child.pid!) - cpuBefore;
  return {
    rps: result.requests.average,
    perCpu: (result.requests.total ?? result.requests.average * duration) / Math.max(cpu, 0.01),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** The read mix over every subject: its latest version, then that version's schema by id. */
async function readMix(url: string): Promise<string[]> {
  const subjects = (await (await fetch(`${url}/subjects`)).json()) as string[];
  const mix: string[] = [];
  for (const subject of subjects) {
    const latest = `/subjects/${encodeURIComponent(subject)}/versions/latest`;
    const { id } = (await (await fetch(`${url}${latest}`)).json()) as { id: number };
    mix.push(`/schemas/ids/${id}`, latest);
  }
  return mix;
}

/** The published figures this bench is set beside (not measured here). */
const PUBLISHED = [
  ['Redpanda (ccompat)', '~7,708'],
  ['Confluent Schema Registry (ccompat)', '~6,088'],
  ['Apicurio 3 (native v3 / ccompat)', '~5,692 / ~4,995'],
  ['Karapace (ccompat)', '~629'],
];

/**
 * Runs the contenders in interleaved rounds after a warm-up: the bare `node:https` ceiling, and
 * `eventry serve` over TLS and over plain HTTP on the same read mix; the memory of each eventry process
 * after its runs.
 */
export async function runServeTlsBench(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-serve-tls-'));
  // Readable by nginx's workers, which run as another user when the bench runs as root.
  chmodSync(work, 0o755);
  const servers: Started[] = [];
  try {
    const { cert, key } = selfSigned(work);
    const serving = /^eventry: serving (\S+)$/;
    const tls = await start(
      [CLI, 'serve', '--port', '0', '--poll', '0', '--tls-cert', cert, '--tls-key', key],
      serving,
    );
    servers.push(tls);
    const plain = await start([CLI, 'serve', '--port', '0', '--poll', '0'], serving);
    servers.push(plain);
    // The plain server has the same history: the same paths and bytes as over TLS.
    const mix = await readMix(plain.url);
    const bodyFile = join(work, 'body.json');
    writeFileSync(bodyFile, Buffer.from(await (await fetch(`${plain.url}${mix[0]}`)).arrayBuffer()));
    const bare = await start(['-e', BARE_SERVER, bodyFile, cert, key], /^listening (\S+)$/);
    servers.push(bare);
    const contenders = [
      { name: 'bare `node:https`, one fixed buffer (ceiling)', server: bare, paths: [mix[0]!] },
      { name: '`eventry serve --tls-cert …`, read mix', server: tls, paths: mix },
      { name: '`eventry serve` (plain HTTP), read mix', server: plain, paths: mix },
    ];
    if (NGINX) {
      const nginx = await startNginx(exportRegistry(CLI, REPO, work), work, await freePort(), cert, key);
      servers.push(nginx);
      contenders.push({ name: 'static export behind nginx over TLS, read mix', server: nginx, paths: mix });
    }
    const loadBefore = loadavg().map((value) => value.toFixed(2));
    for (const contender of contenders) await load(contender.server, contender.paths, WARM_UP_SECONDS);
    const results = contenders.map(() => [] as Load[]);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, contender] of contenders.entries())
        results[index]!.push(await load(contender.server, contender.paths));
    }
    const loadAfter = loadavg().map((value) => value.toFixed(2));
    const rows = contenders.map((contender, index) => {
      const rounds = results[index]!;
      const memory = memoryOf(contender.server.child.pid!);
      return `| ${contender.name} | ${Math.round(median(rounds.map((r) => r.rps))).toLocaleString('en')} req/s | ${Math.round(median(rounds.map((r) => r.perCpu))).toLocaleString('en')} | ${median(rounds.map((r) => r.p50))} ms | ${median(rounds.map((r) => r.p99))} ms | ${Math.round(memory.rss)} MiB (peak ${Math.round(memory.peak)} MiB) | ${rounds.reduce((sum, r) => sum + r.errors, 0)} | measured here |`;
    });
    return [
      '## Registry server over TLS, in the setting of Apicurio #9887',
      '',
      `${machineLine()} One \`eventry serve\` process (seed catalogue and this repository's releases: ${mix.length / 2} subjects; the read mix alternates \`GET /schemas/ids/{id}\` and \`GET /subjects/{s}/versions/latest\` over all of them), TLS terminated by the server itself (\`--tls-cert\`, a self-signed P-256 certificate made for the run). autocannon, ${CONNECTIONS} keep-alive connections, ${WARM_UP_SECONDS} s warm-up, then ${ROUNDS} interleaved rounds of ${SECONDS} s per contender; medians of the rounds. The load generator runs on the same 2 CPUs as the server (Apicurio's ran on another host): the figures understate the server. Load average (1/5/15 min) before: ${loadBefore.join(' / ')}, after: ${loadAfter.join(' / ')} (the machine is shared). Memory: the server process's resident set after its runs, and its peak. Requests per server CPU second: requests answered over the CPU time the server process used in the round (user + system, from /proc), which sharing the machine changes far less than throughput; one Node process uses about one CPU for its requests.`,
      '',
      '| registry | throughput | requests per server CPU second | p50 | p99 | memory | errors | |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      ...PUBLISHED.map(
        ([name, rps]) => `| ${name} | ${rps} req/s | | | | | | published elsewhere, not measured here |`,
      ),
      '',
      `The published rows are the medians of successful requests per second over a 180 s measured phase reported in Apicurio/apicurio-registry#9887 (2 CPU / 2 GiB registry, 100 clients, 1,000 schemas, TLS and Basic auth in a proxy in front, immutable lookups by id). They come from another machine and another load generator: they frame the figures above, they are not a ratio to them. ${NGINX ? "The static export: `eventry registry export` of the same history, served by Debian's nginx as generators/schema-registry/README.md configures it (TLS, `try_files $uri $uri/index.json`, its default `worker_processes auto`: one worker per CPU, where `eventry serve` is one process); its memory and CPU are the master's and the workers' together." : 'The static export behind nginx has no row: nginx is not installed here (`apt-get install nginx`).'}`,
    ].join('\n');
  } finally {
    for (const server of servers) await stop(server);
    rmSync(work, { recursive: true, force: true });
  }
}

/** A TCP port free at the time of asking, for a server that cannot be told to pick one (nginx). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}
