import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAST_TWINS } from '../../generators/execute/fast/index.js';
import { editGroup, formatMs, machineLine, median, runNodeTimed, type TimedRun } from './measure.js';
import { writeSyntheticCatalogue } from './synthetic-catalogue.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = join(REPO, 'dist/scripts/bench/twins-build.js');
/** 36 copies of the seed: 9,936 events in 684 groups (as the scale suite). */
const COPIES = 36;
/** Rounds of every variant in turn: an odd count, for a median that is one run. */
const ROUNDS = 3;
/** No-op builds per variant and round (the reference's no-op is a whole build: one). */
const NOOPS = 3;
/** The fast executor, with each twin off alone, and the reference executor. */
const VARIANTS = ['fast', ...FAST_TWINS.map((twin) => `no-${twin}`), 'reference'];
/** Slower by more than this without a twin, on some row: the twin pays. */
const PAYS = 1.1;

function build(variant: string, dir: string): TimedRun {
  return runNodeTimed([ENTRY, variant, join(dir, 'catalogue'), join(dir, 'packages')]);
}

const ROWS = ['full', 'edit', 'no-op'] as const;
type Row = (typeof ROWS)[number];
type Runs = Record<string, Record<Row, TimedRun[]>>;

/**
 * Every variant's full build (empty output and cache), edit of one group and no-op, in turn within
 * each round (A B C … A B C …), each variant in a folder of its own (its catalogue copy, output and
 * project cache). Earlier rounds' outputs are moved aside, not deleted (see scale.ts).
 */
function measureSize(catalogue: string, work: string, groupFiles: string[]): Runs {
  const runs: Runs = {};
  for (const variant of VARIANTS) {
    cpSync(catalogue, join(work, variant, 'catalogue'), { recursive: true });
    runs[variant] = { full: [], edit: [], 'no-op': [] };
  }
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts one variant later: in a fixed order `fast`, the base of every ratio, always ran
    // right after the reference's heavy build, and a slot's neighbour moved its rows (decision 0080).
    const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
    for (const variant of order) {
      const dir = join(work, variant);
      const aside = join(work, 'aside', `${variant}-${round}`);
      mkdirSync(aside, { recursive: true });
      for (const name of ['packages', '.eventry']) {
        if (existsSync(join(dir, name))) renameSync(join(dir, name), join(aside, name));
      }
      runs[variant]!.full.push(build(variant, dir));
    }
    for (const variant of order) {
      editGroup(join(work, variant, 'catalogue', 'groups', groupFiles[round]!), String(round));
      runs[variant]!.edit.push(build(variant, join(work, variant)));
    }
    for (const variant of order) {
      const count = variant === 'reference' ? 1 : NOOPS;
      for (let i = 0; i < count; i++) runs[variant]!['no-op'].push(build(variant, join(work, variant)));
    }
  }
  return runs;
}

const timeOf = (runs: TimedRun[]) => median(runs.map((run) => run.ms));
const rssOf = (runs: TimedRun[]) =>
  runs.every((run) => run.rssMiB === undefined) ? undefined : Math.max(...runs.map((run) => run.rssMiB ?? 0));

/**
 * Each build twin of the fast executor measured by its absence: whole build processes (full build,
 * edit one group, no-op) at the seed and at 10,000 events, with the fast executor as it is, with each
 * twin off alone, and with the reference executor, interleaved round by round.
 */
export async function runTwinsBench(): Promise<string> {
  const load = loadavg().map((value) => value.toFixed(2));
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-twins-'));
  try {
    const seedGroups = readdirSync(join(REPO, 'catalogue', 'groups')).filter((name) =>
      name.endsWith('.yaml'),
    );
    const seed = measureSize(join(REPO, 'catalogue'), join(work, 'seed'), seedGroups.slice(0, ROUNDS));
    const big = writeSyntheticCatalogue(join(REPO, 'catalogue'), join(work, 'synthetic'), COPIES);
    const bigGroups = Array.from(
      { length: ROUNDS },
      (_, i) => `billing-c${String(i + 1).padStart(2, '0')}.yaml`,
    );
    const large = measureSize(big.dir, join(work, '10k'), bigGroups);
    const minutes = (performance.now() - started) / 60000;

    const sizes = [
      { name: 'seed', runs: seed },
      { name: '10k', runs: large },
    ];
    const cell = (runs: TimedRun[]) => {
      const rss = rssOf(runs);
      return `${formatMs(timeOf(runs))}${rss === undefined ? '' : ` · ${Math.round(rss)} MiB`}`;
    };
    const lines = [
      `## Build twins (seed: 276 events; synthetic: ${big.events} events in ${big.groups} groups)`,
      '',
      `${machineLine()} Load average at start ${load.join(' / ')} (1/5/15 min; the machine is shared); ${minutes.toFixed(1)} min in all. Each cell a whole \`node dist/scripts/bench/twins-build.js <variant>\` process (\`eventry build\`'s executor run, without its lint summary line), start included: the median time of ${ROUNDS} rounds (no-op: of ${ROUNDS * NOOPS}, the reference's of ${ROUNDS}) and the highest peak RSS (\`/usr/bin/time -f %M\`). The variants run in turn within each round, each round starting one variant later; full: empty output and project cache; edit: one group's description added, after the full build; no-op: after the edit. \`no-<twin>\`: the fast executor with that twin off alone (\`FastOptions.off\`, docs/decisions/0080).`,
      '',
      `| run | ${VARIANTS.join(' | ')} |`,
      `|---|${VARIANTS.map(() => '---').join('|')}|`,
    ];
    for (const { name, runs } of sizes) {
      for (const row of ROWS) {
        lines.push(
          `| ${name} ${row} | ${VARIANTS.map((variant) => cell(runs[variant]![row])).join(' | ')} |`,
        );
      }
    }
    lines.push(
      '',
      `Without / with each twin (the \`no-<twin>\` median over \`fast\`'s, per row; peak RSS likewise): a twin pays when some row is slower or larger than ${PAYS.toFixed(2)}× without it.`,
      '',
      `| twin | ${sizes.flatMap(({ name }) => ROWS.map((row) => `${name} ${row}`)).join(' | ')} | 10k full peak RSS | pays |`,
      `|---|${sizes.flatMap(() => ROWS.map(() => '---')).join('|')}|---|---|`,
    );
    for (const twin of FAST_TWINS) {
      const ratios: number[] = [];
      const cells: string[] = [];
      for (const { runs } of sizes) {
        for (const row of ROWS) {
          const ratio = timeOf(runs[`no-${twin}`]![row]) / timeOf(runs.fast![row]);
          ratios.push(ratio);
          cells.push(`${ratio.toFixed(2)}×`);
        }
      }
      const without = rssOf(large[`no-${twin}`]!.full);
      const withIt = rssOf(large.fast!.full);
      const rss = without !== undefined && withIt !== undefined ? without / withIt : undefined;
      if (rss !== undefined) ratios.push(rss);
      const best = Math.max(...ratios);
      lines.push(
        `| ${twin} | ${cells.join(' | ')} | ${rss === undefined ? 'n/a' : `${rss.toFixed(2)}×`} | ${best > PAYS ? `yes (${best.toFixed(2)}×)` : `no (at most ${best.toFixed(2)}×)`} |`,
      );
    }
    lines.push('');
    return lines.join('\n');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
