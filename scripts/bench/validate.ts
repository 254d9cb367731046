import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { openEventSchema } from '../../generators/emit/package/validators.js';
import { loadCatalogue } from '../../generators/load/index.js';
import type { Catalogue } from '../../generators/model.js';
import { standaloneEventSchema } from '../../generators/schema/json-schema.js';
import { machineLine, median } from './measure.js';
import {
  CONTENDERS,
  type Contender,
  type ContenderData,
  type MeasureReply,
  type MeasureRequest,
} from './validate-worker.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(REPO, 'dist/scripts/eventry.js');

/** The representative events: flat, wide (30 fields), nested (arrays of shapes). */
const EVENTS = [
  ['flat', 'account.created-v1'],
  ['wide', 'fieldworks.water_meter_installation.completed-v1'],
  ['nested', 'contract-groups.version-created-v1'],
] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Mode = 'strict' | 'tolerant';

interface Row {
  event: string;
  payload: string;
  mode: Mode;
  valid: boolean;
  /** Operations per second of each contender, one number per round. */
  ops: Record<string, number[]>;
  parse?: Record<'parse' | 'parseValidate', number[]>;
}

/**
 * Validation throughput of the generated group packages against ajv at its defaults compiling the same
 * schema at run time (and, labelled apart, ajv with eventry's options), @exodus/schemasafe and typebox, and against `JSON.parse` of the same payload; the cost of the
 * full error body on invalid payloads; cold start of a consumer process. All in one run.
 */
export async function runValidateBench(): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-validate-'));
  try {
    const out = join(work, 'packages');
    const build = spawnSync(
      process.execPath,
      [CLI, 'build', '--catalogue', join(REPO, 'catalogue'), '--out', out],
      {
        encoding: 'utf8',
      },
    );
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
    const loaded = loadCatalogue(join(REPO, 'catalogue'));
    if (!loaded.ok) throw new Error('the catalogue does not load');
    const model = loaded.catalogue;
    // The packages import ajv-formats and their shared run time package by name, as once installed.
    const nodeModules = join(work, 'node_modules');
    mkdirSync(join(nodeModules, model.config.scope), { recursive: true });
    symlinkSync(join(REPO, 'node_modules', 'ajv-formats'), join(nodeModules, 'ajv-formats'), 'dir');
    symlinkSync(join(out, 'runtime'), join(nodeModules, model.config.scope, 'runtime'), 'dir');

    const load = loadavg();
    const rows: Row[] = [];
    const threads = contenderThreads(out);
    try {
      for (const [kind, key] of EVENTS) rows.push(...(await measureEvent(model, threads, kind, key)));
    } finally {
      await threads.close();
    }
    const cold = measureColdStart(model, out, nodeModules);
    return report(rows, cold, { start: load, end: loadavg() });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function measureEvent(
  model: Catalogue,
  threads: ContenderThreads,
  kind: string,
  key: string,
): Promise<Row[]> {
  const slug = model.events[key]!.group;
  const examples = JSON.parse(readFileSync(join(threads.out, slug, 'examples', `${key}.json`), 'utf8')) as {
    full: Json;
  };
  const valid = widen(examples.full);
  const invalid = breakPayload(valid);
  const undocumented = addUndocumented(valid);
  const schemas = {
    strict: standaloneEventSchema(model, key, 'closed'),
    tolerant: openEventSchema(model, key),
  };

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
    rows.push(row);
  }
  return rows;
}

/** A thread per contender (`validate-worker.ts`), each asked in turn for one measurement at a time. */
export interface ContenderThreads {
  out: string;
  measure(contender: Contender, request: MeasureRequest): Promise<{ ns: number; parseValidateNs?: number }>;
  close(): Promise<void>;
}

/** `script`: the compiled worker, beside this file in `dist/` unless said otherwise (a test runs this from source). */
export function contenderThreads(
  out: string,
  script: URL = new URL('./validate-worker.js', import.meta.url),
): ContenderThreads {
  // V8 moves an allocation site's objects straight to the old generation once enough of them outlive a
  // young-generation collection. A benchmark loop trips it by chance: ajv `allErrors` on the flat
  // invalid payload took 65 ns a call in some runs and 200–420 ns in others, depending on what ran before
  // (eventry's figures did not move). Off for the contender threads, which start after this, so every
  // row measures the validators rather than that decision; back on when they are done.
  setFlagsFromString('--no-allocation-site-pretenuring');
  const threads = new Map(
    CONTENDERS.map((contender) => [
      contender,
      new Worker(script, { workerData: { contender, out } satisfies ContenderData }),
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

const best = (values: number[]): number => Math.max(...values);
/** Median over rounds of `a / b`. */
const ratioOf = (a: number[], b: number[]): number => median(a.map((value, i) => value / b[i]!));

/** Arrays of objects get three items each, at every depth: a fuller nested payload. */
function widen(value: Json): Json {
  if (Array.isArray(value)) {
    const items = value.map(widen);
    return items.length === 1 && typeof items[0] === 'object' && items[0] !== null
      ? [items[0], items[0], items[0]]
      : items;
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, widen(v)]));
  }
  return value;
}

/**
 * Three problems (strict; two in tolerant mode): a wrong type, a missing field, an undocumented field.
 * Built as a new object without the field, as `JSON.parse` or an object literal makes one: deleting the
 * field from a copy would leave the object in V8's dictionary mode, which no parsed payload is in, and
 * V8 then compiles a validator's later field reads (of valid payloads too) as generic lookups.
 */
function breakPayload(valid: Json): Json {
  const entries = Object.entries(structuredClone(valid) as { [key: string]: Json });
  const [[wrong, value], missing] = [entries[0]!, entries[1]!];
  const broken = entries.filter((entry) => entry !== missing);
  broken[0] = [wrong, typeof value === 'number' ? 'x' : 12.5];
  return Object.fromEntries([...broken, ['undocumented_field', true]]);
}

/** The valid payload with fields the catalogue does not list, at the top and in the first nested object. */
function addUndocumented(valid: Json): Json {
  const copy = structuredClone(valid) as { [key: string]: Json };
  copy.added_later = 'x';
  for (const value of Object.values(copy)) {
    const nested = Array.isArray(value) ? value[0] : value;
    if (nested !== null && typeof nested === 'object' && !Array.isArray(nested)) {
      (nested as { [key: string]: Json }).added_later = { any: 1 };
      break;
    }
  }
  return copy;
}

interface ColdStart {
  node: number;
  /** What importing one empty module file takes over `node -e 0`. */
  moduleOverhead: number;
  /** What importing one empty npm package by name takes over `node -e 0`. */
  packageOverhead: number;
  /**
   * Process, median wall time, median of its excess over the bare run next to it, over the run
   * importing one empty module and over the run importing one empty package by name, target excess
   * (over bare node).
   */
  rows: [string, number, number, number, number, number][];
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

/** A difference in ms with its sign: `+1.2`, `-0.5`. */
function signed(ms: number): string {
  return `${ms >= 0 ? '+' : ''}${ms.toFixed(1)}`;
}

/** Load averages (1, 5, 15 min) when the bench started and ended: the machine may be shared. */
interface Load {
  start: number[];
  end: number[];
}

/** Contenders' column names; the ajv peers by what they are configured with. */
const PEERS: [Contender, string][] = [
  ['ajv', 'ajv (defaults)'],
  ['ajv allErrors', 'ajv allErrors (defaults)'],
  ['ajv eventry options', "ajv, eventry's options (ownProperties)"],
  ['schemasafe', 'schemasafe'],
  ['typebox', 'typebox (boolean check, builds no error)'],
];

function report(rows: Row[], cold: ColdStart, load: Load): string {
  const fmt = (ops: number) =>
    ops >= 1e6
      ? `${(ops / 1e6).toFixed(2)} M/s`
      : ops >= 1e3
        ? `${(ops / 1e3).toFixed(0)} k/s`
        : `${ops.toFixed(0)}/s`;
  const ratio = (a: number[], b: number[]) => `${ratioOf(a, b).toFixed(2)}×`;
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const loads = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const lines = [
    '## Validation (generated group packages)',
    '',
    `${machineLine()} Load average (1/5/15 min) ${loads(load.start)} at the start, ${loads(load.end)} at the end: the machine is shared with other work, so figures taken under load are noisier than the ratios suggest (each ratio compares neighbours in a round, which shared the load). 5 interleaved rounds of mitata means (≥ 100 ms CPU each; the parse table: 21 rounds of ≥ 40 ms), in one run; ops/s are each contender's best round, ratios the median of per-round ratios.`,
    'Each contender runs in a worker thread of its own, which validates every row in turn: its own V8',
    'heap, as in an application using that one library. V8 flag `--no-allocation-site-pretenuring` for',
    "these threads: with it on, a contender's error objects were sometimes moved to the old generation at",
    'birth, by chance of what ran before (ajv `allErrors` on the flat invalid payload: 65 ns a call in some',
    "runs, 200–420 ns in others; eventry's figures did not move), so a row measured that decision rather",
    "than the validators. Each row's measured closure is code of its own (compiled apart, with its own",
    'type feedback): one closure shared by every row inlined by chance of the rows before it (the group',
    "API's flat valid row read 14 M/s in one run and 32 M/s in the next). Payloads reach each thread as",
    "JSON text and are parsed there; eventry's options are an object literal, as a caller writes them",
    "(`{ mode: 'tolerant' }`). Every",
    'contender validates the same JSON Schema (closed for strict, open for tolerant). The ajv peer is ajv at',
    'its defaults, compiled at run time once per mode: `new Ajv2020({ strict: false })` (strict mode would',
    "reject the schemas' `x-` annotations as unknown keywords) plus `ajv-formats` (the schemas carry",
    'formats, which ajv alone does not know), and nothing else; `ajv allErrors (defaults)` adds only',
    "`allErrors: true`. Targets are judged against these. `ajv, eventry's options (ownProperties)` is",
    "ajv with the options of eventry's agreement test (`createAjv`: strict, `ownProperties: true`, no",
    'messages, its keywords and formats), first error only: `ownProperties` makes every field read a',
    '`hasOwnProperty` call, which the generated code does not pay (it checks own fields its own way), so it',
    'is shown apart and judges nothing. eventry has one validator per event for',
    "both modes (each mode imports the package under its own URL, but V8 shares one file's compiled code and",
    'type feedback, so the tolerant rows run on the validator the strict rows warmed). eventry returns the',
    'platform 400 body with every problem on invalid payloads, built in full by the call (nothing is left to',
    'build when the body is read or serialised); ajv (defaults) stops at the first error; `ajv allErrors`',
    'collects every error with its message but maps none to a response body. typebox is a boolean check:',
    '`Compile(schema).Check(payload)` answers true or false and builds no error at all, so on invalid',
    'payloads it stops at the first failed test: its invalid rows (hundreds of M/s, about a nanosecond or',
    'less a call) measure little more than the loop around the call, and compare with nothing that reports',
    'errors. schemasafe: its first-error function on valid payloads, its all-errors one (`includeErrors`)',
    'on invalid ones. Payloads: the shipped full example (arrays',
    'of objects widened to 3 items); invalid = a wrong type, a missing required field and an undocumented',
    'field (made by `JSON.parse`, like every payload). A payload a field was `delete`d from is in',
    "V8's dictionary mode, and a validator that has seen one reads fields by hash lookup from then on (ajv's",
    'too): it is left out, as the rows would measure that payload history rather than the validators.',
    '`eventry` is the group API (`validate(key, payload, options)`), `eventry, one event` the per-event entry',
    'point (`<pkg>/events/<key>`: `validate(payload, options)`). Targets are judged on the group API.',
    'Every row is measured; the columns marked "derived" are computed from the measured columns of the',
    'same row (ratios, and the verdicts on them).',
    '',
    '### Throughput',
    '',
    `| event | payload | mode | eventry | eventry, one event | ${PEERS.map(([, name]) => name).join(' | ')} | × ajv (defaults), derived | one event × ajv (defaults), derived | × ajv allErrors (defaults), derived | × ajv, eventry's options, derived | target, derived |`,
    `|---|---|---|---|---|${PEERS.map(() => '---|').join('')}---|---|---|---|---|`,
  ];
  for (const row of rows) {
    const { ops } = row;
    const vsAjv = ratioOf(ops.eventry!, ops.ajv!);
    const vsFull = ratioOf(ops.eventry!, ops['ajv allErrors']!);
    const target = row.valid
      ? `≥ 1.0× ajv (defaults): ${met(vsAjv >= 1)}`
      : `≥ 1.0× ajv allErrors (defaults): ${met(vsFull >= 1)}`;
    lines.push(
      `| ${row.event} | ${row.payload} | ${row.mode} | ${fmt(best(ops.eventry!))} | ${fmt(best(ops['eventry event']!))} | ${PEERS.map(([n]) => fmt(best(ops[n]!))).join(' | ')} | ${ratio(ops.eventry!, ops.ajv!)} | ${ratio(ops['eventry event']!, ops.ajv!)} | ${ratio(ops.eventry!, ops['ajv allErrors']!)} | ${ratio(ops.eventry!, ops['ajv eventry options']!)} | ${target} |`,
    );
  }
  lines.push(
    '',
    '### Against the physical limit: `JSON.parse` of the same payload (valid payloads)',
    '',
    '| event | payload | mode | `JSON.parse` | parse + validate | time ratio, derived | target ≤ 1.10, derived |',
    '|---|---|---|---|---|---|---|',
  );
  for (const row of rows) {
    if (!row.parse) continue;
    const timeRatio = ratioOf(row.parse.parse, row.parse.parseValidate);
    lines.push(
      `| ${row.event} | ${row.payload} | ${row.mode} | ${fmt(best(row.parse.parse))} | ${fmt(best(row.parse.parseValidate))} | ${timeRatio.toFixed(3)} | ${met(timeRatio <= 1.1)} |`,
    );
  }
  const flatInvalid = rows.find(
    (row) => row.event.startsWith('flat') && !row.valid && row.mode === 'strict',
  )!;
  lines.push(
    '',
    '### Invalid payloads with the full error body',
    '',
    `Flat event, strict, 3 problems: ${fmt(median(flatInvalid.ops.eventry!))} (median of rounds; best ${fmt(best(flatInvalid.ops.eventry!))}; target ≥ 1 M/s: ${met(median(flatInvalid.ops.eventry!) >= 1e6)}). Each event has one validator, ajv's all-errors code with each field read once: on a valid payload it does what a first-error one does; an invalid payload is walked once, and each error is handed to the run time as found (a missing field, an undocumented field, a wrong type: a call with its dot path and value, no error object), which finds its item (made once per place in the code) or makes it there and then; the result gets copies of its own, in an array of their number.`,
    '',
    '### Cold start',
    '',
    `Whole \`node\` processes, medians of 40 interleaved runs (1-minute load average when the bench started: ${load.start[0]!.toFixed(1)}). Bare \`node -e 0\`: ${cold.node.toFixed(1)} ms; an ES module that imports one empty module file (Node's file module loader, paid by any consumer that imports a package at all): ${signed(cold.moduleOverhead)} ms over it; one that imports an empty npm package by name (Node's resolution of a bare specifier besides, paid by any consumer that imports a package by name, as an event's entry imports the run time package): ${signed(cold.packageOverhead)} ms over it. What is over the last is eventry's own: its modules read, parsed and run, the event's validator compiled, the payload validated.`,
    '',
    '| process | median | over bare node (median of per-run differences), derived | over importing one empty module, derived | over importing one empty package by name, derived | target (over bare node), derived |',
    '|---|---|---|---|---|---|',
    ...cold.rows.map(
      ([name, ms, over, overModule, overPackage, target]) =>
        `| ${name} | ${ms.toFixed(1)} ms | ${signed(over)} ms | ${signed(overModule)} ms | ${signed(overPackage)} ms | ≤ +${target} ms: ${met(over <= target)} |`,
    ),
    '',
  );
  return lines.join('\n');
}
