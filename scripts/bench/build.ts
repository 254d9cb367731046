import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMs, machineLine, median, timeCommand } from './measure.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');

/** Full build of the seed catalogue and no-op rebuild, as a user runs them: whole processes. */
export async function runBuildBench(): Promise<string> {
  const node = median(Array.from({ length: 15 }, () => timeCommand(process.execPath, ['-e', '0'])));
  const full: number[] = [];
  const noop: number[] = [];
  const forced: number[] = [];
  for (let i = 0; i < 5; i++) {
    const out = mkdtempSync(join(tmpdir(), 'eventry-bench-'));
    const args = [CLI, 'build', '--catalogue', join(REPO, 'catalogue'), '--out', out];
    full.push(timeCommand(process.execPath, args));
    for (let j = 0; j < 3; j++) noop.push(timeCommand(process.execPath, args));
    forced.push(timeCommand(process.execPath, [...args, '--force']));
    rmSync(out, { recursive: true, force: true });
  }
  const rows = [
    ['bare `node -e 0` (peer: process start)', node, '', ''],
    ['full build into an empty folder', median(full), '< 2000 ms', median(full) < 2000 ? 'met' : 'MISSED'],
    ['forced rebuild (all work, unchanged files not rewritten)', median(forced), '', ''],
    ['no-op rebuild (catalogue unchanged)', median(noop), '< 300 ms', median(noop) < 300 ? 'met' : 'MISSED'],
  ] as const;
  return [
    '## Build (seed catalogue: 276 events, 19 groups, 52 shapes)',
    '',
    `${machineLine()} Medians of 5 (full, forced) and 15 (no-op, node) runs; each a whole \`node dist/scripts/eventry.js build\` process, start included.`,
    '',
    '| run | median | × node start | target | |',
    '|---|---|---|---|---|',
    ...rows.map(
      ([name, ms, target, verdict]) =>
        `| ${name} | ${formatMs(ms)} | ${(ms / node).toFixed(1)}× | ${target} | ${verdict} |`,
    ),
    '',
  ].join('\n');
}
