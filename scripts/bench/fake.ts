import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateSync } from 'json-schema-faker';
import type { GroupApi } from '../../generators/runtime/runtime.js';
import type { TestingApi } from '../../generators/runtime/testing.js';
import { formatMs, machineLine, median, timeCommand } from './measure.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');

/** Payloads `fake` draws per event, each checked by the package's validator (strict mode). */
const DRAWS = 10_000;
/** Payloads json-schema-faker generates per event for the speed ratio (it takes milliseconds each). */
const PEER_DRAWS = 20;
/** Runs per cold-import measurement. */
const COLD_RUNS = 15;

/** What a group's `testing` entry point adds, and what it costs: the three budgets. */
const FILES_OF_TESTING = /^(testing(-data|-values)?|fast-check)\.(js|d\.ts)$/;

/**
 * The test data budgets, in one run over the seed catalogue: `fake` against json-schema-faker 0.6 (at
 * its defaults) on the same events' shipped schemas, every fake payload valid; the packed size of all
 * packages with and without the testing entry points; the cold import of a group's main entry with and
 * without them.
 */
export async function runFakeBench(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-fake-'));
  try {
    const out = join(work, 'with', 'packages');
    const build = spawnSync(
      process.execPath,
      [CLI, 'build', '--catalogue', join(REPO, 'catalogue'), '--out', out],
      {
        encoding: 'utf8',
      },
    );
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    // The packages import ajv-formats by name, as once installed.
    mkdirSync(join(work, 'with', 'node_modules'));
    symlinkSync(
      join(REPO, 'node_modules', 'ajv-formats'),
      join(work, 'with', 'node_modules', 'ajv-formats'),
      'dir',
    );
    const without = join(work, 'without', 'packages');
    cpSync(join(work, 'with'), join(work, 'without'), { recursive: true, verbatimSymlinks: true });
    const slugs = readdirSync(out).filter((slug) => !slug.startsWith('.') && slug !== 'node_modules');
    // The group packages (the run time and the compiled catalogue count in the size, not in the speed).
    const groups = slugs.filter((slug) => existsSync(join(out, slug, 'testing-data.js')));
    for (const slug of slugs)
      for (const file of readdirSync(join(without, slug)))
        if (FILES_OF_TESTING.test(file)) rmSync(join(without, slug, file));

    const speed = await measureSpeed(out, groups);
    const sizeWith = packedSize(out, slugs);
    const sizeWithout = packedSize(without, slugs);
    const cold = (dir: string) =>
      median(
        Array.from({ length: COLD_RUNS }, () =>
          timeCommand(process.execPath, [
            '--input-type=module',
            '-e',
            `await import(${JSON.stringify(pathToFileURL(join(dir, 'billing', 'index.js')).href)})`,
          ]),
        ),
      );
    const coldWithout = cold(without);
    const coldWith = cold(out);
    const coldWithout2 = cold(without);
    const baseline = (coldWithout + coldWithout2) / 2;
    return [
      '## Test data (`fake`, the testing entry point)',
      '',
      machineLine(),
      `Seed catalogue: ${speed.events} events. \`fake\` drew ${DRAWS.toLocaleString('en')} payloads per event (random variant), ${speed.invalid} of them invalid in strict mode (target 0).`,
      '',
      '| measure | eventry | peer / before | ratio | target |',
      '|---|---|---|---|---|',
      `| one payload, same events (json-schema-faker ${jsfVersion()} \`generateSync\`, defaults) | ${formatUs(speed.fakeMs)} | ${formatUs(speed.peerMs)} | ${(speed.peerMs / speed.fakeMs).toFixed(0)}× faster | ≥ 10× |`,
      `| packed size of all ${slugs.length} packages (npm pack) | ${formatKb(sizeWith)} | ${formatKb(sizeWithout)} without testing | +${(((sizeWith - sizeWithout) / sizeWithout) * 100).toFixed(1)}% | ≤ +30% |`,
      `| cold import of \`@platform-events/billing\` (main entry, median of ${COLD_RUNS} processes) | ${formatMs(coldWith)} | ${formatMs(baseline)} without testing | ${(coldWith / baseline).toFixed(2)} | unchanged (the main entry never imports testing) |`,
    ].join('\n');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function measureSpeed(out: string, slugs: string[]) {
  let events = 0;
  let invalid = 0;
  let fakeTime = 0;
  let fakeCount = 0;
  let peerTime = 0;
  let peerCount = 0;
  for (const slug of slugs) {
    const testing = (await import(pathToFileURL(join(out, slug, 'testing.js')).href)) as TestingApi<
      Record<string, unknown>
    >;
    const group = (await import(pathToFileURL(join(out, slug, 'index.js')).href)) as GroupApi<
      Record<string, unknown>
    >;
    for (const key of testing.eventKeys) {
      events++;
      const payloads: unknown[] = new Array(DRAWS);
      const started = performance.now();
      for (let i = 0; i < DRAWS; i++) payloads[i] = testing.fake(key, { seed: i });
      fakeTime += performance.now() - started;
      fakeCount += DRAWS;
      for (const payload of payloads) if (!group.validate(key, payload).valid) invalid++;
      const schema = JSON.parse(readFileSync(join(out, slug, 'schemas', `${key}.json`), 'utf8'));
      const peerStarted = performance.now();
      for (let i = 0; i < PEER_DRAWS; i++) generateSync(schema);
      peerTime += performance.now() - peerStarted;
      peerCount += PEER_DRAWS;
    }
  }
  return { events, invalid, fakeMs: fakeTime / fakeCount, peerMs: peerTime / peerCount };
}

/** The summed `npm pack` size (bytes) of the packages under `out`. */
function packedSize(out: string, slugs: string[]): number {
  let total = 0;
  for (const slug of slugs) {
    const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: join(out, slug),
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`npm pack ${slug} failed: ${result.stderr}`);
    total += (JSON.parse(result.stdout) as { size: number }[])[0]!.size;
  }
  return total;
}

function jsfVersion(): string {
  return (
    JSON.parse(readFileSync(join(REPO, 'node_modules/json-schema-faker/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
}

function formatUs(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`;
}

function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
