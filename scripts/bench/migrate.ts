import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as fc from 'fast-check';
import jsonata from 'jsonata';
import { emitGroupPackages } from '../../generators/emit/package/index.js';
import { MIGRATION_RUNS, verifyMigrations } from '../../generators/emit/package/migration-check.js';
import { groupMigrations } from '../../generators/emit/package/migrations.js';
import { emitRuntimePackage } from '../../generators/emit/package/runtime-package.js';
import { testingData } from '../../generators/emit/package/testing.js';
import { migrationJsonata } from '../../generators/migrate/jsonata.js';
import type { Catalogue, Migration } from '../../generators/model.js';
import { defineTesting } from '../../generators/runtime/testing.js';
import { formatMs, machineLine, median, nsPerCall, timeCommand } from './measure.js';
import {
  CATALOGUE,
  copyWithoutMigrations,
  multiVersionTypes,
  seedModel,
  withDerivedMigrations,
} from './migrate-catalogue.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CHILD = join(REPO, 'dist/scripts/bench/migrate-catalogue.js');
const CLI = join(REPO, 'dist/scripts/eventry.js');
const FROM = 'billing.ledger.entry_removed-v1';
const TO = 'billing.ledger.entry_removed-v2';
/** Payloads of v1 (from its `arbitrary`, a fixed seed), each upcast in turn; rounds repeat them. */
const PAYLOADS = 500;
const MIN_MS = 500;
/** Child processes per build measurement. */
const BUILD_RUNS = 5;
/** The targets: upcast at least this many times faster than jsonata; verification under 2 s. */
const TARGET_RATIO = 10;
const TARGET_MS = 2000;

/** The bench's migration as model data (the steps above). */
function benchMigration(model: Catalogue): Migration {
  const source = model.events[TO]!.source;
  const entry = {
    id: 0,
    amount: 0,
    is_charge: false,
    is_credit: false,
    is_payment: false,
    is_repayment: false,
    is_reversal: false,
    is_reversed: false,
    source_reason: '',
  };
  return {
    from: FROM,
    to: TO,
    source,
    steps: [
      { kind: 'set', field: ['entry'], value: entry, source },
      { kind: 'set', field: ['entry', 'source_reason'], cel: "'migrated ' + message.ledger.number", source },
      {
        kind: 'set',
        field: ['entry', 'id'],
        cel: 'has(message.ledger.id) ? size(message.ledger.id) : 0',
        source,
      },
      { kind: 'rename', from: ['ledger', 'id'], to: ['entry', 'source_reason'], source },
      { kind: 'drop', fields: [['obsolete_field']], source },
    ],
  };
}

/**
 * Issue 46's speed budgets: `upcast` from a built group package against the `jsonata` library
 * evaluating the same migration (outputs checked equal on every payload), and what verifying a
 * migration per multi-version event type of the seed adds to emitting its group packages.
 */
export async function runMigrateBench(): Promise<string> {
  const model = seedModel();
  const migration = benchMigration(model);
  const migrated = {
    ...model,
    events: { ...model.events, [TO]: { ...model.events[TO]!, upgrade: migration } },
  };
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-migrate-'));
  try {
    const billing = await writeBilling(migrated, work);
    const payloads = fc.sample(arbitraryOf(migrated), { numRuns: PAYLOADS, seed: 46 });
    // What `eventry serve` gives a Confluent client's `JsonataExecutor` for the same steps.
    const expression = jsonata(migrationJsonata(migrated, migration));
    for (const payload of payloads) {
      const ours = billing.upcast(FROM, payload);
      const theirs = await expression.evaluate(payload);
      if (JSON.stringify(ours) !== JSON.stringify(theirs))
        throw new Error(`upcast and jsonata differ on ${JSON.stringify(payload)}`);
    }
    const ours = nsPerCall((payload) => billing.upcast(FROM, payload), payloads, MIN_MS);
    const theirs = await nsPerAsyncCall(payloads, (payload) => expression.evaluate(payload));
    return report(ours, theirs, await buildCost(model));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The billing group package of `model`, written into `work` beside the run time, and imported. */
async function writeBilling(model: Catalogue, work: string) {
  const files = [...emitRuntimePackage(model), ...(await emitGroupPackages(model, { versions: {} }))];
  for (const file of files.filter((one) => /^(billing|runtime|node_modules)\//.test(one.path))) {
    mkdirSync(dirname(join(work, file.path)), { recursive: true });
    writeFileSync(join(work, file.path), file.contents);
  }
  mkdirSync(join(work, 'node_modules'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules', 'ajv-formats'), join(work, 'node_modules', 'ajv-formats'), 'dir');
  return (await import(pathToFileURL(join(work, 'billing', 'index.js')).href)) as {
    upcast(from: string, payload: unknown): unknown;
  };
}

/** fast-check's arbitrary of v1 payloads, from the run time's test data (as the build draws them). */
function arbitraryOf(model: Catalogue) {
  const group = model.groups.find((one) => one.slug === model.events[FROM]!.group)!;
  const data = testingData(model, { ...group, events: [FROM] });
  return defineTesting<Record<string, unknown>>(group.slug, data, fc).arbitrary(FROM);
}

/** `nsPerCall` (measure.ts) for an asynchronous call (jsonata 2 evaluates to a promise), each awaited in turn. */
async function nsPerAsyncCall(
  payloads: readonly unknown[],
  call: (payload: unknown) => Promise<unknown>,
): Promise<number> {
  let sink = 0;
  for (const payload of payloads) if (await call(payload)) sink++;
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    for (const payload of payloads) if (await call(payload)) sink++;
    calls += payloads.length;
    elapsed = performance.now() - started;
  } while (elapsed < MIN_MS);
  if (sink < 0) console.log(sink);
  return (elapsed * 1e6) / calls;
}

interface BuildCost {
  types: number;
  /** Per migration verified: its keys and the payloads it ran on. */
  verified: { from: string; to: string; runs: number; direction: 'upgrade' | 'downgrade' }[];
  /** Median ms of `eventry build` of the seed without its migrations and as it is. */
  build?: { without: number; upgrades: number };
  /** Median ms of emitting every group package in one cold process, by mode. */
  without: number;
  upgrades: number;
  both: number;
}

/** What verifying the derived migrations adds to emitting the seed's group packages (child processes). */
async function buildCost(model: Catalogue): Promise<BuildCost> {
  const { model: migrated } = withDerivedMigrations(model, true);
  const verified: BuildCost['verified'] = [];
  for (const group of migrated.groups) {
    for (const one of await verifyMigrations(migrated, group, groupMigrations(migrated, group)))
      verified.push({
        from: one.migration.from,
        to: one.migration.to,
        runs: one.runs,
        direction: one.direction,
      });
  }
  const time = (mode: string) =>
    median(
      Array.from({ length: BUILD_RUNS }, () =>
        Number(execFileSync(process.execPath, [CHILD, mode], { encoding: 'utf8' }).trim()),
      ),
    );
  const without = time('without');
  const build = realBuild();
  return {
    ...(build ? { build } : {}),
    types: multiVersionTypes(model).length,
    verified,
    without,
    upgrades: time('upgrades'),
    both: time('both'),
  };
}

/**
 * `eventry build` (a cold process, output folder new each time) of the seed catalogue as it is, with its
 * migrations (an upgrade and a downgrade per version after the first of each multi-version type), and
 * of a copy without them.
 */
function realBuild(): BuildCost['build'] {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-migrate-build-'));
  try {
    const plain = join(work, 'plain');
    const migrated = join(work, 'migrated');
    copyWithoutMigrations(CATALOGUE, plain);
    cpSync(CATALOGUE, migrated, { recursive: true });
    const time = (catalogue: string) =>
      median(
        Array.from({ length: BUILD_RUNS }, (_, i) => {
          const out = join(work, `out-${i}-${catalogue === plain ? 'plain' : 'migrated'}`);
          return timeCommand(process.execPath, [CLI, 'build', '--catalogue', catalogue, '--out', out]);
        }),
      );
    return { without: time(plain), upgrades: time(migrated) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function report(ours: number, theirs: number, cost: BuildCost): string {
  const ratio = theirs / ours;
  const upgrades = cost.verified.filter((one) => one.direction === 'upgrade');
  const added = cost.upgrades - cost.without;
  const runs = cost.verified.map((one) => one.runs);
  return [
    '## Migrations: upcast vs jsonata, and verification at build',
    '',
    `${machineLine()} Load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' / ')} at the end (the machine is shared: absolute times vary, the ratio is the figure).`,
    '',
    `\`upcast('${FROM}', payload)\` of the built billing package (the migration compiled to JavaScript: a constant \`set\`, two \`set\` by CEL, a \`rename\`, a \`drop\`) against jsonata ${jsonataVersion()} evaluating the JSONata \`eventry serve\` gives for the same steps (generators/migrate/jsonata.ts), awaited as a Confluent client's \`JsonataExecutor\` does; ${PAYLOADS} v1 payloads from its \`arbitrary\` (seed 46), outputs checked equal on each, repeated for at least ${MIN_MS} ms a side.`,
    '',
    '| upcast (package) | jsonata | ratio | target |',
    '|---|---|---|---|',
    `| ${ours.toFixed(0)} ns | ${theirs.toFixed(0)} ns | ${ratio.toFixed(0)}× | ≥ ${TARGET_RATIO}×: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'} |`,
    '',
    `Verification at build: the seed catalogue with a migration per version after the first of each of its ${cost.types} multi-version event types (${upgrades.length} upgrades, derived from the versions' fields by scripts/bench/migrate-catalogue.ts, on the seed without its own), each verified on ${Math.min(...runs)}–${Math.max(...runs)} payloads (${MIGRATION_RUNS} asked, seed 46), all passing; then the same with a downgrade beside each upgrade (${cost.verified.length} migrations). Each figure the median of ${BUILD_RUNS} cold processes emitting every group package in one thread (a build spreads the groups over its thread pool), catalogue load not included.`,
    '',
    '| group packages | without migrations | with the upgrades | added | with upgrades and downgrades | added | target (upgrades) |',
    '|---|---|---|---|---|---|---|',
    `| ${cost.types} types | ${formatMs(cost.without)} | ${formatMs(cost.upgrades)} | ${formatMs(added)} | ${formatMs(cost.both)} | ${formatMs(cost.both - cost.without)} | < ${TARGET_MS} ms: ${added < TARGET_MS ? 'met' : 'NOT met'} |`,
    '',
    cost.build
      ? `\`eventry build\` of the seed catalogue (cold process, new output folder; median of ${BUILD_RUNS}): ${formatMs(cost.build.without)} without its migrations, ${formatMs(cost.build.upgrades)} as it is (an \`upgrade:\` and a \`downgrade:\` per version after the first of each multi-version type, each verified on ${MIGRATION_RUNS} payloads), +${formatMs(cost.build.upgrades - cost.build.without)} (target < ${TARGET_MS} ms: ${cost.build.upgrades - cost.build.without < TARGET_MS ? 'met' : 'NOT met'}).`
      : '`eventry build` of a catalogue declaring them: not measured, the loader does not read `upgrade:` yet.',
  ].join('\n');
}

function jsonataVersion(): string {
  return (createRequire(import.meta.url)('jsonata/package.json') as { version: string }).version;
}
