import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLoader } from '../../generators/execute/fast/loader.js';
import { resolveLintConfig } from '../../generators/lint/config.js';
import { lintCatalogue } from '../../generators/lint/lint.js';
import { LINT_RULES } from '../../generators/lint/rules/index.js';
import { loadCatalogueFromSources, readCatalogueSources } from '../../generators/load/index.js';
import { formatMs, machineLine, median } from './measure.js';
import { writeSyntheticCatalogue } from './synthetic-catalogue.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * CPU time of the process (user + system), in ms: on a machine shared with other work (load averages
 * of 20 on 2 cores were seen) wall time measures the neighbours; one thread runs here, so CPU time is
 * the work done.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The sizes measured: the seed, 10 and 36 renamed copies of it (36: 9,936 events, as the scale bench). */
const COPIES = [1, 10, 36];
/** The issue's target: a lint of about 10,000 events within a second beyond loading them. */
const TARGET_MS = 1000;

/**
 * `eventry lint` speed beyond loading: the load (files read, YAML to model) and the lint (every rule,
 * suppressions, the baseline) timed apart, in process, on synthetic catalogues made of renamed copies
 * of the seed (scripts/bench/synthetic-catalogue.ts); the lint with the recommended preset and with
 * every rule on (strict: missing-description too, the rule that reports most).
 */
export async function runLintBench(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-lint-'));
  try {
    const rows: string[] = [];
    for (const copies of COPIES) {
      const dir = join(work, `x${copies}`);
      const synthetic = writeSyntheticCatalogue(join(REPO, 'catalogue'), dir, copies);
      const files = readCatalogueSources(dir);
      const loads: number[] = [];
      let catalogue: ReturnType<typeof loadCatalogueFromSources> | undefined;
      for (let i = 0; i < 3; i++) {
        const started = cpuMs();
        // As `eventry lint` loads (no parse cache in this bench).
        catalogue = loadCatalogueFromSources(readCatalogueSources(dir), { accelerator: openLoader() });
        loads.push(cpuMs() - started);
      }
      if (!catalogue?.ok) throw new Error('the synthetic catalogue does not load');
      const model = catalogue.catalogue;
      const time = (preset: 'recommended' | 'strict') => {
        const config = resolveLintConfig({ preset });
        const runs: number[] = [];
        let findings = 0;
        for (let i = 0; i < 5; i++) {
          const started = cpuMs();
          findings = lintCatalogue(model, { files, config }).findings.length;
          runs.push(cpuMs() - started);
        }
        return { ms: median(runs), findings };
      };
      const recommended = time('recommended');
      const strict = time('strict');
      const load = median(loads);
      const met = strict.ms < TARGET_MS ? 'met' : 'missed';
      rows.push(
        `| ${synthetic.events.toLocaleString('en')} events, ${synthetic.groups} groups | ${formatMs(load)} | ${formatMs(recommended.ms)} (${recommended.findings.toLocaleString('en')} findings) | ${formatMs(strict.ms)} (${strict.findings.toLocaleString('en')} findings) | ${(strict.ms / load).toFixed(2)}× | ${copies === 36 ? `< ${TARGET_MS} ms: ${met}` : ''} |`,
      );
    }
    return `## Lint (${LINT_RULES.length} rules)

${machineLine()} CPU time (user + system) in process, as the machine is shared: the load (read + YAML → model) median of 3, each lint median of 5, on the seed and on renamed copies of it (the scale bench's synthetic catalogue). The lint is everything \`eventry lint\` does after loading: every rule, inline suppressions, the baseline.

| catalogue | load | lint, recommended | lint, strict (every rule on) | strict lint ÷ load | target |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
