import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { formatMs, machineLine, median } from './measure.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');
const CONNECTIONS = 32;
const SECONDS = 4;
const ROUNDS = 5;

/** The peer: a bare `node:http` server answering one fixed buffer (the same bytes as the schema route). */
const BARE_SERVER = `
const { createServer } = require('node:http');
const body = require('node:fs').readFileSync(process.argv[1]);
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/vnd.schemaregistry.v1+json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log('listening http://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

interface Started {
  url: string;
  child: ChildProcess;
  /** ms from spawn to the ready line. */
  startMs: number;
}

const HISTORY_RELEASES = 10;

/**
 * A repository with the seed catalogue released HISTORY_RELEASES times (each release changes one
 * event's description and bumps the version), for the start time on a longer history.
 */
function longHistory(work: string): string {
  const dir = join(work, 'history');
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'b',
        GIT_AUTHOR_EMAIL: 'b@x.invalid',
        GIT_COMMITTER_NAME: 'b',
        GIT_COMMITTER_EMAIL: 'b@x.invalid',
      },
    });
  cpSync(join(REPO, 'catalogue'), join(dir, 'catalogue'), { recursive: true });
  git('init', '-q');
  const config = join(dir, 'catalogue', 'eventry.config.yaml');
  const group = join(dir, 'catalogue', 'groups', 'account.yaml');
  const original = readFileSync(group, 'utf8');
  for (let release = 0; release < HISTORY_RELEASES; release += 1) {
    writeFileSync(config, readFileSync(config, 'utf8').replace(/^version: .*$/m, `version: 1.${release}.0`));
    writeFileSync(
      group,
      original.replace(
        '  account.created-v1:\n',
        `  account.created-v1:\n    description: Release ${release}.\n`,
      ),
    );
    git('add', '-A');
    git('commit', '-q', '-m', `release 1.${release}.0`);
  }
  return dir;
}

/** Spawns a server process and waits for its line with the URL. */
function start(args: string[], ready: RegExp, cwd = REPO): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const match = ready.exec(line);
      if (match) resolve({ url: match[1]!, child, startMs: performance.now() - started });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before it was ready`)));
  });
}

function stop(server: Started): Promise<void> {
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}

interface Load {
  rps: number;
  p99: number;
  errors: number;
}

async function load(url: string): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/**
 * `serve` under load on the loopback: `GET /schemas/ids/{id}` and `GET /subjects/{s}/versions/latest`
 * against a bare `node:http` server answering a fixed buffer of the same size, interleaved in rounds
 * within one run (autocannon, 32 connections). Also the start time of `eventry serve` on the seed
 * catalogue with and without the release cache.
 */
export async function runServeBench(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-serve-'));
  const servers: Started[] = [];
  try {
    const cold = await start([CLI, 'serve', '--port', '0', '--no-cache'], /^eventry: serving (\S+)$/);
    await stop(cold);
    const warmStarts: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const warm = await start([CLI, 'serve', '--port', '0'], /^eventry: serving (\S+)$/);
      warmStarts.push(warm.startMs);
      if (i < 2) await stop(warm);
      else servers.push(warm);
    }
    const eventry = servers[0]!;
    const subject = 'account.created-v1';
    const latestPath = `/subjects/${subject}/versions/latest`;
    const latest = (await (await fetch(`${eventry.url}${latestPath}`)).json()) as { id: number };
    const idPath = `/schemas/ids/${latest.id}`;
    const body = Buffer.from(await (await fetch(`${eventry.url}${idPath}`)).arrayBuffer());
    const bodyFile = join(work, 'body.json');
    writeFileSync(bodyFile, body);
    const bare = await start(['-e', BARE_SERVER, bodyFile], /^listening (\S+)$/);
    servers.push(bare);
    const history = longHistory(work);
    const historyCold = await start([CLI, 'serve', '--port', '0'], /^eventry: serving (\S+)$/, history);
    await stop(historyCold);
    const historyWarm = await start([CLI, 'serve', '--port', '0'], /^eventry: serving (\S+)$/, history);
    await stop(historyWarm);

    const contenders = [
      { name: 'bare `node:http`, fixed buffer (ceiling)', url: `${bare.url}${idPath}` },
      { name: `eventry \`GET ${idPath}\``, url: `${eventry.url}${idPath}` },
      { name: `eventry \`GET ${latestPath}\``, url: `${eventry.url}${latestPath}` },
    ];
    const results = contenders.map(() => [] as Load[]);
    // Warm-up, then rounds interleaved so drift on a shared machine hits every contender alike.
    for (const contender of contenders) await autocannon({ url: contender.url, connections: 8, duration: 1 });
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, contender] of contenders.entries()) results[index]!.push(await load(contender.url));
    }
    // Ratios are taken round by round (each against the ceiling measured just before), then the median.
    const ratioOf = (index: number, pick: (load: Load) => number) =>
      median(results[index]!.map((load, round) => pick(load) / Math.max(pick(results[0]![round]!), 1e-9)));
    const rows = contenders.map((contender, index) => {
      const rounds = results[index]!;
      const rps = median(rounds.map((r) => r.rps));
      const p99 = median(rounds.map((r) => r.p99));
      const errors = rounds.reduce((sum, r) => sum + r.errors, 0);
      const ratio = ratioOf(index, (load) => load.rps);
      const target = index === 0 ? '' : `≥ 0.7×: ${ratio >= 0.7 ? 'met' : 'MISSED'}`;
      return `| ${contender.name} | ${Math.round(rps).toLocaleString('en')} req/s | ${ratio.toFixed(2)}× | ${p99} ms | ${ratioOf(index, (load) => load.p99).toFixed(2)}× | ${errors} | ${target} |`;
    });
    return [
      `## Registry server (\`eventry serve\`, seed catalogue: ${body.length}-byte schema body)`,
      '',
      `${machineLine()} autocannon, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per contender in one run, client and servers on the same loopback (each server its own process); medians of the rounds; ratios are the median of per-round ratios. The target is throughput against the bare \`node:http\` ceiling measured in the same run.`,
      '',
      '| route | throughput | × ceiling | p99 latency | p99 × ceiling (lower is better) | errors | target |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      'Start time of `eventry serve` (spawn to the `serving` line, seed catalogue, this repository’s releases):',
      '',
      '| start | time |',
      '|---|---|',
      `| without the release cache (\`--no-cache\`) | ${formatMs(cold.startMs)} |`,
      `| with the release cache (median of 3) | ${formatMs(median(warmStarts))} |`,
      `| ${HISTORY_RELEASES} releases of the seed catalogue, first start (cache empty) | ${formatMs(historyCold.startMs)} |`,
      `| ${HISTORY_RELEASES} releases of the seed catalogue, restart (cache warm) | ${formatMs(historyWarm.startMs)} |`,
    ].join('\n');
  } finally {
    for (const server of servers) await stop(server);
    rmSync(work, { recursive: true, force: true });
  }
}
