/**
 * `npm run bench -- consumers`: 10,000 events with 1,000 consumer declarations. Measures, in one
 * process, loading the declarations (parse, schema check, every range and field checked against the
 * catalogue) and computing the impact of a change on them, as a ratio to loading the catalogue alone.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeImpact } from '../../generators/diff/impact.js';
import { compareCatalogues } from '../../generators/diff/index.js';
import { openLoader } from '../../generators/execute/fast/loader.js';
import {
  type LoadOptions,
  loadCatalogueFromSources,
  readCatalogueSources,
} from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { formatMs, machineLine, median } from './measure.js';
import { writeSyntheticCatalogue } from './synthetic-catalogue.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** 36 copies of the seed: 9,936 events. */
const COPIES = 36;
const DECLARATIONS = 1000;
const TEAMS = 100;
const RUNS = 5;
/** The target: declarations and impact together, against one load of the catalogue. */
const TARGET_RATIO = 0.5;

/** Writes teams.yaml and consumers/*.yaml: 1,000 declarations of real event types and fields. */
function writeDeclarations(dir: string, catalogue: Catalogue): number {
  const teams = Array.from({ length: TEAMS }, (_, i) => `team-${i + 1}`);
  // The seed's teams (its groups name them as owners and producers), and the consuming teams.
  const seedTeams = readFileSync(join(REPO, 'catalogue', 'teams.yaml'), 'utf8');
  writeFileSync(
    join(dir, 'teams.yaml'),
    `${seedTeams.trimEnd()}\n${teams.map((team) => `  ${team}: {name: ${team}, contact: ${team}@example.com, code_owner: "@acme/${team}"}`).join('\n')}\n`,
  );
  const events = Object.values(catalogue.events).filter((event) => event.fields.length > 0);
  const perTeam = DECLARATIONS / TEAMS;
  let written = 0;
  for (const [t, team] of teams.entries()) {
    const lines = [`team: ${team}`, 'consumes:'];
    const types = new Set<string>();
    for (let i = 0; types.size < perTeam; i++) {
      const event = events[(t * 97 + i * 131) % events.length]!;
      if (types.has(event.type)) continue;
      types.add(event.type);
      const fields = event.fields.slice(0, 3).map((field) => JSON.stringify(field.name));
      const reader = i % 4 === 0 ? 'strict' : 'tolerant';
      lines.push(
        `  ${event.type}:`,
        '    versions: ">=1"',
        `    reader: ${reader}`,
        `    fields: [${fields.join(', ')}]`,
      );
      written++;
    }
    writeFileSync(join(dir, 'consumers', `${team}.yaml`), `${lines.join('\n')}\n`);
  }
  return written;
}

/** A change to measure the impact of: the first field of every tenth event removed. */
function changed(catalogue: Catalogue): Catalogue {
  const events = { ...catalogue.events };
  Object.keys(events).forEach((key, index) => {
    const event = events[key]!;
    if (index % 10 === 0 && event.fields.length > 1)
      events[key] = { ...event, fields: event.fields.slice(1) };
  });
  return { ...catalogue, events };
}

function timed<T>(work: () => T): { ms: number; value: T } {
  const started = performance.now();
  const value = work();
  return { ms: performance.now() - started, value };
}

/** Runs the suite and returns its RESULTS.md section. */
export async function runConsumersBench(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'eventry-bench-consumers-'));
  try {
    const synthetic = writeSyntheticCatalogue(join(REPO, 'catalogue'), dir, COPIES);
    const definitions = readCatalogueSources(dir);
    // As the CLI loads (no parse cache in this bench); a new accelerator per load, so none shares parses.
    const fast = (): LoadOptions => ({ accelerator: openLoader() });
    const first = loadCatalogueFromSources(definitions, fast());
    if (!first.ok) throw new Error('the synthetic catalogue does not load');
    mkdirSync(join(dir, 'consumers'));
    const declarations = writeDeclarations(dir, first.catalogue);
    const all = readCatalogueSources(dir);
    const catalogueMs: number[] = [];
    const withDeclarationsMs: number[] = [];
    const impactMs: number[] = [];
    let broken = 0;
    for (let run = 0; run < RUNS; run++) {
      const alone = timed(() => loadCatalogueFromSources(definitions, fast()));
      catalogueMs.push(alone.ms);
      const both = timed(() => loadCatalogueFromSources(all, fast()));
      if (!both.value.ok)
        throw new Error(`declarations do not load: ${JSON.stringify(both.value.problems.slice(0, 3))}`);
      withDeclarationsMs.push(both.ms);
      const before = both.value.catalogue;
      const after = changed(before);
      const findings = compareCatalogues(before, after);
      const impact = timed(() => computeImpact(findings, before, after, before.ownership));
      impactMs.push(impact.ms);
      broken = impact.value.impacts.filter((entry) => entry.status === 'broken').length;
    }
    const load = median(catalogueMs);
    const declarationsMs = median(withDeclarationsMs) - load;
    const impact = median(impactMs);
    const ratio = (declarationsMs + impact) / load;
    return [
      '## Consumers: 10,000 events, 1,000 consumer declarations',
      '',
      machineLine(),
      `${synthetic.events} events in ${synthetic.groups} groups, ${declarations} declarations of ${TEAMS} teams (3 fields each); the change removes a field of every tenth event (${broken} broken team × version pairs). Medians of ${RUNS} in-process runs, no parse cache.`,
      '',
      '| what | time | ratio to loading the catalogue | target |',
      '|---|---|---|---|',
      `| load the catalogue alone | ${formatMs(load)} | 1.00 | |`,
      `| load and check the declarations (added to the load) | ${formatMs(declarationsMs)} | ${(declarationsMs / load).toFixed(2)} | |`,
      `| compute the impact of the change | ${formatMs(impact)} | ${(impact / load).toFixed(2)} | |`,
      `| declarations + impact | ${formatMs(declarationsMs + impact)} | ${ratio.toFixed(2)} | ≤ ${TARGET_RATIO} and < 1 s: ${ratio <= TARGET_RATIO && declarationsMs + impact < 1000 ? 'met' : 'missed'} |`,
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
