import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { indexOptions, searchEvents } from '../../generators/docs/search-query.js';
import { formatMs, machineLine, median } from './measure.js';
import { writeSyntheticCatalogue } from './synthetic-catalogue.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');

/** What one `eventry docs` process cost, as /usr/bin/time reports it. */
interface DocsRun {
  wallMs: number;
  cpuMs: number;
  maxRssMiB: number;
}

/** Runs `eventry docs` as a child under /usr/bin/time (peak RSS of the child, not of this process). */
function timeDocs(cwd: string, args: string[]): DocsRun {
  const started = performance.now();
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', 'rss=%M user=%U sys=%S', process.execPath, CLI, 'docs', ...args],
    {
      cwd,
      encoding: 'utf8',
    },
  );
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`eventry docs failed: ${result.stderr}`);
  const match = /rss=(\d+) user=([\d.]+) sys=([\d.]+)/.exec(result.stderr);
  if (!match) throw new Error(`no /usr/bin/time figures in: ${result.stderr}`);
  return {
    wallMs,
    cpuMs: (Number(match[2]) + Number(match[3])) * 1000,
    maxRssMiB: Number(match[1]) / 1024,
  };
}

/** Total bytes and file count below a folder. */
function folderSize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
    files++;
  }
  return { bytes, files };
}

/** Sizes of the event pages of a site, sorted. */
function eventPageSizes(site: string): number[] {
  return readdirSync(join(site, 'events'))
    .map((key) => statSync(join(site, 'events', key, 'index.html')).size)
    .sort((a, b) => a - b);
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The queries timed over the 10k index; the last six are the worst cases. */
const QUERIES = [
  'revok',
  'agreement.revoked',
  'account_number',
  'meter',
  'ledger entry',
  'c17.billing',
  'supply_point_id',
  'reading date',
  'x',
  'conv',
  // The worst cases: short prefixes and terms in nearly every event (`v1` is in ~9,000 keys).
  'v',
  'v1',
  'a',
  'ac',
  'acco',
  'account number',
];

/**
 * The docs portal: seed and 10,000-event site builds as whole `eventry docs` processes (time, CPU, peak
 * RSS), output and page sizes, and search latency over the serialised 10k index (MiniSearch in Node,
 * the same library and options the search page uses).
 */
export async function runDocsBench(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-docs-'));
  try {
    const seed = measureSeedSite(work);
    const scale = measureScaleSite(work);
    const search = measureSearch(readFileSync(join(scale.site, 'assets/search-index.json'), 'utf8'));
    return formatDocsBench(seed, scale, search);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Seed: the repository's catalogue, packages and history, three runs into fresh folders. */
function measureSeedSite(work: string) {
  const runs = [0, 1, 2].map((i) => timeDocs(REPO, ['--out', join(work, `seed-site-${i}`), '--no-cache']));
  const site = join(work, 'seed-site-0');
  return { runs, size: folderSize(site), pages: eventPageSizes(site) };
}

/** 10k: the scale suite's synthetic catalogue, its packages built first (setup, not measured). */
function measureScaleSite(work: string) {
  const scale = join(work, 'scale');
  const synthetic = writeSyntheticCatalogue(join(REPO, 'catalogue'), join(scale, 'catalogue'), 36);
  const built = spawnSync(
    process.execPath,
    [CLI, 'build', '--catalogue', 'catalogue', '--out', 'packages', '--no-cache'],
    { cwd: scale, encoding: 'utf8' },
  );
  if (built.status !== 0) throw new Error(`building the 10k packages failed: ${built.stderr}`);
  const load = loadavg()[0]!;
  const docsArgs = ['--catalogue', 'catalogue', '--packages', 'packages', '--out', 'site', '--no-cache'];
  const run = timeDocs(scale, docsArgs);
  // Run again over that site: what `npm run build` costs every time after the first.
  const rerun = timeDocs(scale, docsArgs);
  const site = join(scale, 'site');
  return { synthetic, load, run, rerun, site, size: folderSize(site), pages: eventPageSizes(site) };
}

/** Search latency over the serialised index: a cold round, then 19 more of every query. */
function measureSearch(indexText: string) {
  const loadStarted = performance.now();
  const index = MiniSearch.loadJSON(indexText, indexOptions());
  const loadMs = performance.now() - loadStarted;
  const latencies: number[] = [];
  const cold: number[] = [];
  const hits = new Map<string, number>();
  const perQuery = new Map<string, number[]>();
  for (let round = 0; round < 20; round++) {
    for (const query of QUERIES) {
      const started = performance.now();
      const found = searchEvents(index, query);
      const ms = performance.now() - started;
      (round === 0 ? cold : latencies).push(ms);
      if (round > 0) perQuery.set(query, [...(perQuery.get(query) ?? []), ms]);
      hits.set(query, found.length);
    }
  }
  const [slowest, slowestTimes] = [...perQuery].sort((a, b) => median(b[1]) - median(a[1]))[0]!;
  latencies.sort((a, b) => a - b);
  const p95 = latencies[Math.floor(latencies.length * 0.95)]!;
  return { bytes: Buffer.byteLength(indexText), loadMs, hits, cold, latencies, slowest, slowestTimes, p95 };
}

/** The bench's section of RESULTS.md. */
function formatDocsBench(
  seed: ReturnType<typeof measureSeedSite>,
  scale: ReturnType<typeof measureScaleSite>,
  search: ReturnType<typeof measureSearch>,
): string {
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const { run, rerun, synthetic } = scale;
  const { latencies, hits, p95 } = search;
  const max = latencies.at(-1)!;
  const seedMedian = (pick: (run: DocsRun) => number) => median(seed.runs.map(pick));
  return [
    '## Docs portal (`eventry docs`)',
    '',
    `${machineLine()} Each build a whole \`node dist/scripts/eventry.js docs\` process into an empty folder, no history cache; peak RSS and CPU from \`/usr/bin/time\` of that process. 1-minute load average before the 10k run: ${scale.load.toFixed(1)} (the machine is shared: wall time grows with it, CPU time much less).`,
    '',
    '| run | wall | CPU (user+sys) | peak RSS | output | target | |',
    '|---|---|---|---|---|---|---|',
    `| seed (${seed.pages.length} events, median of 3) | ${formatMs(seedMedian((r) => r.wallMs))} | ${formatMs(seedMedian((r) => r.cpuMs))} | ${seedMedian((r) => r.maxRssMiB).toFixed(0)} MiB | ${mib(seed.size.bytes)} in ${seed.size.files} files | | |`,
    `| 10k synthetic (${synthetic.events} events, ${synthetic.groups} groups) | ${formatMs(run.wallMs)} | ${formatMs(run.cpuMs)} | ${run.maxRssMiB.toFixed(0)} MiB | ${mib(scale.size.bytes)} in ${scale.size.files} files | < 20 s, < 400 MiB, < 300 MB | time ${verdict(run.wallMs < 20_000)}, RSS ${verdict(run.maxRssMiB < 400)}, size ${verdict(scale.size.bytes < 300e6)} |`,
    `| 10k again, replacing that site | ${formatMs(rerun.wallMs)} | ${formatMs(rerun.cpuMs)} | ${rerun.maxRssMiB.toFixed(0)} MiB | | | |`,
    '',
    '| event pages (HTML, before compression) | median | largest | target | |',
    '|---|---|---|---|---|',
    `| seed | ${kib(median(seed.pages))} | ${kib(seed.pages.at(-1)!)} | < 30 KiB | ${verdict(seed.pages.at(-1)! < 30 * 1024)} |`,
    `| 10k synthetic | ${kib(median(scale.pages))} | ${kib(scale.pages.at(-1)!)} | | |`,
    '',
    `Search over the 10k index (${mib(search.bytes)} serialised; loaded with \`MiniSearch.loadJSON\` in ${formatMs(search.loadMs)}, once per search page), in Node with the page's \`searchEvents\` (generators/docs/search-query.ts; the \`search\` suite measures it in Chromium): queries ${QUERIES.map((q) => `\`${q}\` (${hits.get(q)} hits)`).join(', ')}. First run of each (cold): max ${formatMs(Math.max(...search.cold))}. Then ${latencies.length} more: median ${formatMs(median(latencies))}, p95 ${formatMs(p95)}, max ${formatMs(max)}; target < 50 ms: p95 ${verdict(p95 < 50)}, max ${verdict(max < 50)}. Slowest query by median: \`${search.slowest}\` (${hits.get(search.slowest)} hits), median ${formatMs(median(search.slowestTimes))}.`,
    '',
  ].join('\n');
}
