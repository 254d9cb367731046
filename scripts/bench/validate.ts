import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import type { Catalogue } from '../../generators/model.js';
import { startScriptWorker } from '../../generators/shared/worker.js';
import { median } from './measure.js';
import { type ColdStart, type Mode, type Row, report } from './validate-report.js';
import { benchPayloads, buildBenchPackages, EVENTS, type Json } from './validate-setup.js';
import {
  CONTENDERS,
  type Contender,
  type ContenderData,
  type MeasureReply,
  type MeasureRequest,
} from './validate-worker.js';

/**
 * Validation throughput of the generated group packages against ajv at its defaults compiling the same
 * schema at run time (and, labelled apart, ajv with eventry's options), @exodus/schemasafe and typebox, and against `JSON.parse` of the same payload; the cost of the
 * full error body on invalid payloads; cold start of a consumer process. All in one run.
 */
export async function runValidateBench(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-validate-'));
  try {
    const { out, model, nodeModules } = buildBenchPackages(work);

    const load = loadavg();
    const rows: Row[] = [];
    for (const [kind, key] of EVENTS) rows.push(...(await measureEvent(model, out, kind, key)));
    const cold = measureColdStart(model, out, nodeModules);
    return report(rows, cold, { start: load, end: loadavg() });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function measureEvent(model: Catalogue, out: string, kind: string, key: string): Promise<Row[]> {
  const slug = model.events[key]!.group;
  const { valid, invalid, undocumented, schemas } = benchPayloads(model, out, key);

  const cases: [string, Mode, Json, boolean][] = [
    ['valid', 'strict', valid, true],
    ['invalid (3 problems)', 'strict', invalid, false],
    ['valid', 'tolerant', valid, true],
    ['valid + undocumented fields', 'tolerant', undocumented, true],
    ['invalid (2 problems)', 'tolerant', invalid, false],
  ];
  const rows: Row[] = [];
  for (const [label, mode, payload, isValid] of cases) {
    const text = JSON.stringify(payload);
    const request = (cpuMs: number, parse = false): MeasureRequest => ({
      row: `${key} ${mode} ${label}`,
      slug,
      key,
      mode,
      schema: schemas[mode],
      payload: text,
      valid: isValid,
      cpuMs,
      ...(parse ? { parse } : {}),
    });
    // Fresh threads for each row: a validator that ran the rows before it carries what V8 learnt of
    // their payloads (see docs/decisions/0068), and each row measures its own payload alone.
    const threads = contenderThreads(out);
    try {
      rows.push(await measureRow(threads, request, kind, key, label, mode, isValid));
    } finally {
      await threads.close();
    }
  }
  return rows;
}

async function measureRow(
  threads: ContenderThreads,
  request: (cpuMs: number, parse?: boolean) => MeasureRequest,
  kind: string,
  key: string,
  label: string,
  mode: Mode,
  isValid: boolean,
): Promise<Row> {
  const ops: Record<string, number[]> = Object.fromEntries(CONTENDERS.map((name) => [name, []]));
  // Rounds: each contender in turn, in its own thread, so that neighbours in a round ran under the same load.
  for (let round = 0; round < 5; round++) {
    for (const name of CONTENDERS) ops[name]!.push(1e9 / (await threads.measure(name, request(100))).ns);
  }
  const row: Row = { event: `${kind} \`${key}\``, payload: label, mode, valid: isValid, ops };
  if (isValid) {
    const parse: number[] = [];
    const parseValidate: number[] = [];
    for (let round = 0; round < 21; round++) {
      const reply = await threads.measure('eventry', request(40, true));
      parse.push(1e9 / reply.ns);
      parseValidate.push(1e9 / reply.parseValidateNs!);
    }
    row.parse = { parse, parseValidate };
  }
  return row;
}

/** A thread per contender (`validate-worker.ts`), each asked in turn for one measurement at a time. */
export interface ContenderThreads {
  out: string;
  measure(contender: Contender, request: MeasureRequest): Promise<{ ns: number; parseValidateNs?: number }>;
  close(): Promise<void>;
}

/** The threads run the compiled `validate-worker.ts` in `dist/`, from source under vitest too (`startScriptWorker`). */
export function contenderThreads(out: string): ContenderThreads {
  // V8 moves an allocation site's objects straight to the old generation once enough of them outlive a
  // young-generation collection. A benchmark loop trips it by chance: ajv `allErrors` on the flat
  // invalid payload took 65 ns a call in some runs and 200–420 ns in others, depending on what ran before
  // (eventry's figures did not move). Off for the contender threads, which start after this, so every
  // row measures the validators rather than that decision; back on when they are done.
  setFlagsFromString('--no-allocation-site-pretenuring');
  const threads = new Map(
    CONTENDERS.map((contender) => [
      contender,
      startScriptWorker('bench/validate-worker', { workerData: { contender, out } satisfies ContenderData }),
    ]),
  );
  return {
    out,
    measure: (contender, request) =>
      new Promise((resolve, reject) => {
        const thread = threads.get(contender)!;
        const onError = (error: Error) => reject(error);
        thread.once('error', onError);
        thread.once('message', (reply: MeasureReply) => {
          thread.off('error', onError);
          if (reply.ok) resolve(reply);
          else reject(new Error(reply.error));
        });
        thread.postMessage(request);
      }),
    close: async () => {
      await Promise.all([...threads.values()].map((thread) => thread.terminate()));
      setFlagsFromString('--allocation-site-pretenuring');
    },
  };
}

/**
 * Whole consumer processes: import a group package (or one event) and validate one payload.
 * `nodeModules`: where the packages in `out` find the packages they import by name.
 */
function measureColdStart(model: Catalogue, out: string, nodeModules: string): ColdStart {
  const largest = [...model.groups].sort((a, b) => b.events.length - a.events.length)[0]!;
  const key = largest.events[0]!;
  const examples = readFileSync(join(out, largest.slug, 'examples', `${key}.json`), 'utf8');
  const payload = JSON.stringify((JSON.parse(examples) as { minimal: Json }).minimal);
  const url = (path: string) => pathToFileURL(join(out, largest.slug, path)).href;
  const script = (path: string, call: string) =>
    `import { validate } from ${JSON.stringify(url(path))}; if (!${call}.valid) process.exit(1);`;
  // Issue 9's targets: a group import + one validation within +15 ms of bare node, one event's entry +5 ms.
  // The second peer: an ES module that imports one empty module file, what Node's file module loader
  // costs any consumer that imports a package at all (shown beside the target, over `node -e 0`).
  const empty = join(out, 'empty-peer.mjs');
  writeFileSync(empty, '');
  // The third: a module that imports an empty npm package by name, as an event's entry imports the
  // run time package. Node resolves a first bare specifier with machinery of its own (the package.json
  // reader, `exports` maps), which any consumer importing any package pays once.
  const emptyPackage = join(nodeModules, 'eventry-empty-peer');
  mkdirSync(emptyPackage, { recursive: true });
  writeFileSync(
    join(emptyPackage, 'package.json'),
    JSON.stringify({ name: 'eventry-empty-peer', version: '1.0.0', type: 'module', exports: './index.js' }),
  );
  writeFileSync(join(emptyPackage, 'index.js'), '');
  const packagePeer = join(out, 'empty-package-peer.mjs');
  writeFileSync(packagePeer, 'import "eventry-empty-peer";\n');
  const cases: [string, string[], number][] = [
    ['bare `node -e 0`', ['-e', '0'], 0],
    [
      'import one empty module',
      ['--input-type=module', '-e', `import ${JSON.stringify(pathToFileURL(empty).href)};`],
      0,
    ],
    [
      'import one empty package by name',
      ['--input-type=module', '-e', `import ${JSON.stringify(pathToFileURL(packagePeer).href)};`],
      0,
    ],
    [
      `import \`${largest.slug}\` (largest group, ${largest.events.length} events) + validate one payload`,
      ['--input-type=module', '-e', script('index.js', `validate(${JSON.stringify(key)}, ${payload})`)],
      15,
    ],
    [
      `import \`${largest.slug}/events/${key}\` + validate one payload`,
      ['--input-type=module', '-e', script(`events/${key}.js`, `validate(${payload})`)],
      5,
    ],
  ];
  const times = cases.map(() => [] as number[]);
  for (let run = 0; run < 40; run++) {
    cases.forEach(([, args], i) => {
      const started = performance.now();
      const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
      const elapsed = performance.now() - started;
      if (result.status !== 0) throw new Error(`cold start run failed: ${result.stderr}`);
      times[i]!.push(elapsed);
    });
  }
  const bare = times[0]!;
  const emptyImport = times[1]!;
  const packageImport = times[2]!;
  // The median of per-run differences: each run and the bare run beside it shared the machine's load.
  const over = (own: number[], peer: number[]) => median(own.map((ms, run) => ms - peer[run]!));
  return {
    node: median(bare),
    moduleOverhead: over(emptyImport, bare),
    packageOverhead: over(packageImport, bare),
    rows: cases.slice(3).map(([name, , target], i) => {
      const own = times[i + 3]!;
      return [name, median(own), over(own, bare), over(own, emptyImport), over(own, packageImport), target];
    }),
  };
}
