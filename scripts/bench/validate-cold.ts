import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Catalogue } from '../../generators/model.js';
import { median } from './measure.js';
import type { ColdStart, Spread } from './validate-report.js';
import type { Json } from './validate-setup.js';

/**
 * Interleaved runs of each process. The machine is shared: one run's wall time moves by ±15 ms with
 * its neighbours' work, so the per-run differences are many and their spread is shown
 * (docs/decisions/0195).
 */
const COLD_RUNS = 120;

/**
 * The children's environment: this one without `NODE_EXTRA_CA_CERTS`. Node parses that file before it
 * runs any code, alike in every process: kept, it adds noise to every run, and the instruction
 * column would convert at the pace of certificate parsing, not of loading modules (docs/decisions/0199).
 */
function childEnv(): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _dropped, ...env } = process.env;
  return env;
}

/** One consumer process of the cold start table: its name, its `node` arguments, its target over bare node. */
type ColdCase = [name: string, args: string[], target: number | undefined];

/**
 * Whole consumer processes: import a group package (or one event) and validate one payload.
 * `nodeModules`: where the packages in `out` find the packages they import by name.
 */
export function measureColdStart(
  model: Catalogue,
  out: string,
  nodeModules: string,
  runs = COLD_RUNS,
): ColdStart {
  const cases = coldCases(model, out, nodeModules);
  const env = childEnv();
  const times = cases.map(() => [] as number[]);
  for (let run = 0; run < runs; run++) {
    // Each round starts one case later: no case always runs right after another one.
    for (let step = 0; step < cases.length; step++) {
      const i = (run + step) % cases.length;
      const started = performance.now();
      const result = spawnSync(process.execPath, cases[i]![1], { encoding: 'utf8', env });
      const elapsed = performance.now() - started;
      if (result.status !== 0) throw new Error(`cold start run failed: ${result.stderr}`);
      times[i]!.push(elapsed);
    }
  }
  const counts = cases.map(([, args]) => instructions(args, env));
  const [bare, emptyImport, packageImport] = times as [number[], number[], number[]];
  // Differences of runs in the same round: each run and the bare run beside it shared the machine's load.
  const over = (own: number[], peer: number[]) => spread(own.map((ms, run) => ms - peer[run]!));
  // Instructions over bare node's, as milliseconds at bare node's median time per instruction.
  const asMs = (i: number) =>
    counts[0] === undefined || counts[i] === undefined
      ? undefined
      : ((counts[i]! - counts[0]) / counts[0]) * median(bare);
  return {
    runs,
    extraCaCerts: process.env.NODE_EXTRA_CA_CERTS !== undefined,
    node: median(bare),
    moduleOverhead: over(emptyImport, bare),
    packageOverhead: over(packageImport, bare),
    instructions:
      counts[0] === undefined ? undefined : { bare: counts[0], module: asMs(1)!, package: asMs(2)! },
    rows: cases.slice(3).map(([name, , target], j) => {
      const own = times[j + 3]!;
      return {
        name,
        ms: median(own),
        over: over(own, bare),
        overModule: over(own, emptyImport),
        overPackage: over(own, packageImport),
        ...(counts[j + 3] === undefined
          ? {}
          : { instructions: counts[j + 3]!, instructionsMs: asMs(j + 3)! }),
        ...(target === undefined ? {} : { target }),
      };
    }),
  };
}

/** The median and the quartiles of a list of numbers (linear interpolation between ranks). */
function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => {
    const rank = (sorted.length - 1) * q;
    const low = Math.floor(rank);
    return sorted[low]! + (sorted[Math.ceil(rank)]! - sorted[low]!) * (rank - low);
  };
  return { median: at(0.5), q1: at(0.25), q3: at(0.75) };
}

/**
 * The instructions valgrind counts for one process (`--predictable`: V8 compiles and collects on the
 * main thread, so the count is the same from run to run), or undefined without valgrind. Unlike the
 * wall time, it does not move with the machine's load (docs/decisions/0069, 0195).
 */
function instructions(args: string[], env: NodeJS.ProcessEnv): number | undefined {
  const command = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null'];
  const result = spawnSync('valgrind', [...command, process.execPath, '--predictable', ...args], {
    encoding: 'utf8',
    env,
  });
  if (result.error !== undefined) return undefined;
  const refs = /I\s+refs:\s+([\d,]+)/.exec(result.stderr);
  if (result.status !== 0 || refs === null)
    throw new Error(`valgrind run failed: ${result.stderr.slice(-800)}`);
  return Number(refs[1]!.replaceAll(',', ''));
}

/**
 * The processes: bare node, the two peers (an empty module file, an empty package by name), then the
 * rows with targets: the largest group, one event's entry point, and that entry without the validation.
 */
function coldCases(model: Catalogue, out: string, nodeModules: string): ColdCase[] {
  const largest = [...model.groups].sort((a, b) => b.events.length - a.events.length)[0]!;
  const key = largest.events[0]!;
  const examples = readFileSync(join(out, largest.slug, 'examples', `${key}.json`), 'utf8');
  const payload = JSON.stringify((JSON.parse(examples) as { minimal: Json }).minimal);
  const url = (path: string) => JSON.stringify(pathToFileURL(join(out, largest.slug, path)).href);
  const module = (code: string) => ['--input-type=module', '-e', code];
  const script = (path: string, call: string) =>
    module(`import { validate } from ${url(path)}; if (!${call}.valid) process.exit(1);`);
  // Issue 9's targets: a group import + one validation within +15 ms of bare node, one event's entry +5 ms.
  // The second peer: an ES module that imports one empty module file, what Node's file module loader
  // costs any consumer that imports a package at all (shown beside the target, over `node -e 0`).
  const empty = join(out, 'empty-peer.mjs');
  writeFileSync(empty, '');
  // The third: a module that imports an empty npm package by name. Node resolves a first bare
  // specifier with machinery of its own (the package.json reader, `exports` maps), which any consumer
  // importing any package pays once.
  const emptyPackage = join(nodeModules, 'eventry-empty-peer');
  mkdirSync(emptyPackage, { recursive: true });
  writeFileSync(
    join(emptyPackage, 'package.json'),
    JSON.stringify({ name: 'eventry-empty-peer', version: '1.0.0', type: 'module', exports: './index.js' }),
  );
  writeFileSync(join(emptyPackage, 'index.js'), '');
  const packagePeer = join(out, 'empty-package-peer.mjs');
  writeFileSync(packagePeer, 'import "eventry-empty-peer";\n');
  const entry = `events/${key}.js`;
  return [
    ['bare `node -e 0`', ['-e', '0'], 0],
    ['import one empty module', module(`import ${JSON.stringify(pathToFileURL(empty).href)};`), 0],
    [
      'import one empty package by name',
      module(`import ${JSON.stringify(pathToFileURL(packagePeer).href)};`),
      0,
    ],
    [
      `import \`${largest.slug}\` (largest group, ${largest.events.length} events) + validate one payload`,
      script('index.js', `validate(${JSON.stringify(key)}, ${payload})`),
      15,
    ],
    [
      `import \`${largest.slug}/${entry.replace(/\.js$/, '')}\` + validate one payload`,
      script(entry, `validate(${payload})`),
      5,
    ],
    [
      `import \`${largest.slug}/${entry.replace(/\.js$/, '')}\` alone (no validation)`,
      module(`import ${url(entry)};`),
      undefined,
    ],
  ];
}
