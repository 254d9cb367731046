import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAST_EMITTERS } from '../../generators/execute/fast/emitters.js';
import { loadCatalogue } from '../../generators/load/index.js';
import { formatMs, machineLine, median, timeCommand } from './measure.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');

/** Emitters that make up the catalogue documents (issue 2's scope): everything but the group packages. */
const DOCUMENT_EMITTERS = new Set(['json-schema', 'openapi', 'asyncapi', 'catalogue-package']);

/** Full build of the seed catalogue, the edit loop and a no-op rebuild, as whole processes; plus where the time goes. */
export async function runBuildBench(): Promise<string> {
  const load = loadavg().map((value) => value.toFixed(2));
  const node = median(Array.from({ length: 15 }, () => timeCommand(process.execPath, ['-e', '0'])));
  const full: number[] = [];
  const edit: number[] = [];
  const noop: number[] = [];
  for (let i = 0; i < 5; i++) {
    const work = mkdtempSync(join(tmpdir(), 'eventry-bench-'));
    const catalogue = join(work, 'catalogue');
    cpSync(join(REPO, 'catalogue'), catalogue, { recursive: true });
    const args = [CLI, 'build', '--catalogue', catalogue, '--out', join(work, 'packages')];
    full.push(timeCommand(process.execPath, args));
    for (let j = 0; j < 3; j++) noop.push(timeCommand(process.execPath, args));
    const group = join(catalogue, 'groups/billing.yaml');
    writeFileSync(
      group,
      readFileSync(group, 'utf8').replace('title: ', `description: Edit ${i}.\n  title: `),
    );
    edit.push(timeCommand(process.execPath, args));
    rmSync(work, { recursive: true, force: true });
  }

  // In process: where a full build spends its time (no cache, output not written).
  const phases = new Map<string, number[]>();
  const record = (name: string, ms: number) => phases.set(name, [...(phases.get(name) ?? []), ms]);
  for (let i = 0; i < 3; i++) {
    let started = performance.now();
    const loaded = loadCatalogue(join(REPO, 'catalogue'));
    record('load (YAML → model)', performance.now() - started);
    if (!loaded.ok) throw new Error('the catalogue does not load');
    for (const emitter of FAST_EMITTERS) {
      started = performance.now();
      await emitter.emit(loaded.catalogue, { readExisting: () => undefined });
      record(`emit: ${emitter.name}`, performance.now() - started);
    }
  }
  const phaseMedian = (name: string) => median(phases.get(name)!);
  const documents =
    phaseMedian('load (YAML → model)') +
    [...DOCUMENT_EMITTERS].reduce((sum, name) => sum + phaseMedian(`emit: ${name}`), 0);

  const verdict = (ms: number, limit: number) => (ms < limit ? 'met' : 'MISSED');
  return [
    '## Build (seed catalogue: 276 events, 19 groups, 52 shapes)',
    '',
    `${machineLine()} Load average at start ${load.join(' / ')} (1/5/15 min; the machine is shared). Medians of 5 runs (15 for node and no-op); each row a whole \`node dist/scripts/eventry.js build\` process, start included, into an empty temporary folder with no cache.`,
    '',
    '| run | median | × node start, derived | target | |',
    '|---|---|---|---|---|',
    `| bare \`node -e 0\` (peer: process start) | ${formatMs(node)} | 1.0× | | |`,
    `| full build, everything (documents + 19 group packages), empty output, no cache | ${formatMs(median(full))} | ${(median(full) / node).toFixed(1)}× | | |`,
    `| catalogue documents only (issue 2 scope), derived, not a measured process: bare node start above + the in-process medians of load and the document emitters below | ${formatMs(node + documents)} | ${((node + documents) / node).toFixed(1)}× | < 2000 ms | ${verdict(node + documents, 2000)} |`,
    `| rebuild after editing one group file (other groups' packages from the cache) | ${formatMs(median(edit))} | ${(median(edit) / node).toFixed(1)}× | | |`,
    `| no-op rebuild (catalogue unchanged) | ${formatMs(median(noop))} | ${(median(noop) / node).toFixed(1)}× | < 300 ms | ${verdict(median(noop), 300)} |`,
    '',
    'Where a full build spends its time (in process, medians of 3, nothing written):',
    '',
    '| phase | median |',
    '|---|---|',
    ...[...phases.keys()].map((name) => `| ${name} | ${formatMs(phaseMedian(name))} |`),
    '',
  ].join('\n');
}
