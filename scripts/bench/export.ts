import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMs, machineLine, runNodeTimed, type TimedRun } from './measure.js';
import { writeSyntheticCatalogue } from './synthetic-catalogue.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');
/** 36 copies of the seed: 9,936 events in 684 groups (as the scale suite). */
const COPIES = 36;

/** Files and bytes on disk under a folder (the apparent sizes, not blocks). */
function footprint(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/** One size: the export into a new folder, then again (the same release: nothing written). */
function measure(catalogue: string, out: string) {
  const args = [CLI, 'registry', 'export', '--catalogue', catalogue, '--out', out, '--no-cache'];
  const first: TimedRun = runNodeTimed(args);
  const again: TimedRun = runNodeTimed(args);
  const release = join(out, 'current');
  const all = footprint(release);
  const manifests = ['_headers', 'objects.json'].map((name) => statSync(join(release, name)).size);
  return { first, again, ...all, headers: manifests[0]!, objects: manifests[1]! };
}

/**
 * `eventry registry export` of the seed catalogue (its working catalogue alone, as a folder outside git:
 * one version per subject) and of the 10k-event synthetic catalogue: time, peak RSS, files and bytes,
 * and the bytes per event the scale section of generators/schema-registry/README.md extrapolates from.
 */
export async function runExportBench(): Promise<string> {
  const load = loadavg().map((value) => value.toFixed(2));
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-export-'));
  try {
    const seedDir = join(work, 'seed', 'catalogue');
    cpSync(join(REPO, 'catalogue'), seedDir, { recursive: true });
    const seed = measure(seedDir, join(work, 'seed', 'registry'));
    const big = writeSyntheticCatalogue(join(REPO, 'catalogue'), join(work, 'big', 'catalogue'), COPIES);
    const large = measure(big.dir, join(work, 'big', 'registry'));
    const rss = (r: TimedRun) => (r.rssMiB === undefined ? 'n/a' : `${Math.round(r.rssMiB)} MiB`);
    const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    const row = (name: string, events: number, m: ReturnType<typeof measure>) =>
      `| ${name} | ${events} | ${formatMs(m.first.ms)} | ${rss(m.first)} | ${formatMs(m.again.ms)} | ${m.files} | ${mib(m.bytes)} | ${mib(m.headers)} | ${mib(m.objects)} | ${(m.first.ms / events).toFixed(2)} ms, ${Math.round(m.bytes / events)} B |`;
    return [
      `## Static registry export (seed: 276 events; synthetic: ${big.events} events)`,
      '',
      `${machineLine()} Load average at start ${load.join(' / ')} (1/5/15 min; the machine is shared). Each run a whole \`eventry registry export --no-cache\` process into a new folder (a catalogue folder outside git: one version per subject), start and the history load included, files synced before the release is renamed into place; then the same again (the release is already there: nothing written). Files and bytes: the release folder, manifests included.`,
      '',
      '| catalogue | events | export | peak RSS | again (no-op) | files | bytes | `_headers` | `objects.json` | per event |',
      '|---|---|---|---|---|---|---|---|---|---|',
      row('seed', 276, seed),
      row('10k synthetic', big.events, large),
      '',
    ].join('\n');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
