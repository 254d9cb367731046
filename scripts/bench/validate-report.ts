import { machineLine, median } from './measure.js';
import type { Contender } from './validate-worker.js';

/** Whether a row's validator rejects undocumented fields. */
export type Mode = 'strict' | 'tolerant';

/** One measured row: an event, a payload and a mode, every contender's throughput per round. */
export interface Row {
  event: string;
  payload: string;
  mode: Mode;
  valid: boolean;
  /** Operations per second of each contender, one number per round. */
  ops: Record<string, number[]>;
  parse?: Record<'parse' | 'parseValidate', number[]>;
}

/** The best of a contender's rounds. */
const best = (values: number[]): number => Math.max(...values);
/** Median over rounds of `a / b`. */
const ratioOf = (a: number[], b: number[]): number => median(a.map((value, i) => value / b[i]!));

/** A median with its quartiles, in ms. */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
}

/** Cold start of consumer processes, in ms (`validate-cold.ts`). */
export interface ColdStart {
  /** Interleaved runs of each process. */
  runs: number;
  /** Whether this machine sets `NODE_EXTRA_CA_CERTS`, which the children run without (validate-cold.ts). */
  extraCaCerts: boolean;
  /** Bare `node -e 0`'s median. */
  node: number;
  /** What importing one empty module file takes over `node -e 0` (per-run differences). */
  moduleOverhead: Spread;
  /** What importing one empty npm package by name takes over `node -e 0`. */
  packageOverhead: Spread;
  /** Bare node's instructions (valgrind), and the two peers' over it as ms; absent without valgrind. */
  instructions?: { bare: number; module: number; package: number };
  rows: ColdRow[];
}

/** One process with a target: per-run differences over bare node and over each peer's run beside it. */
export interface ColdRow {
  name: string;
  ms: number;
  over: Spread;
  overModule: Spread;
  overPackage: Spread;
  /** Its instructions (valgrind), and those over bare node's as ms at bare node's time per instruction. */
  instructions?: number;
  instructionsMs?: number;
  /** The target over bare node, in ms; none for a row that only splits another. */
  target?: number;
}

/** A difference in ms with its sign: `+1.2`, `-0.5`. */
function signed(ms: number): string {
  return `${ms >= 0 ? '+' : ''}${ms.toFixed(1)}`;
}

/** Load averages (1, 5, 15 min) when the bench started and ended: the machine may be shared. */
export interface Load {
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

/** Operations per second, for the tables. */
const fmt = (ops: number) =>
  ops >= 1e6
    ? `${(ops / 1e6).toFixed(2)} M/s`
    : ops >= 1e3
      ? `${(ops / 1e3).toFixed(0)} k/s`
      : `${ops.toFixed(0)}/s`;
const ratio = (a: number[], b: number[]) => `${ratioOf(a, b).toFixed(2)}×`;
const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
const loads = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');

/** The bench's Markdown section: the rows, the cold start, the machine and its load. */
export function report(rows: Row[], cold: ColdStart, load: Load): string {
  return [
    '## Validation (generated group packages)',
    '',
    ...method(load),
    '',
    ...throughput(rows),
    '',
    ...againstParse(rows),
    '',
    ...invalidAndCold(rows, cold, load),
  ].join('\n');
}

/** How the rows were measured, and what each contender is. */
function method(load: Load): string[] {
  return [
    `${machineLine()} Load average (1/5/15 min) ${loads(load.start)} at the start, ${loads(load.end)} at the end: the machine is shared with other work, so figures taken under load are noisier than the ratios suggest (each ratio compares neighbours in a round, which shared the load). 11 interleaved rounds of mitata means (≥ 100 ms CPU each; the parse table: 21 rounds of ≥ 40 ms), in one run; ops/s are each contender's best round, ratios the median of per-round ratios.`,
    'Each contender runs in a worker thread of its own, started afresh for each row: its own V8 heap, as in',
    'an application using that one library, and no type feedback from the rows before (a validator that had',
    "run the strict invalid payload ran the tolerant rows after it on code fitted to both payloads' shapes;",
    'see docs/decisions/0068). V8 flag `--no-allocation-site-pretenuring` for',
    "these threads: with it on, a contender's error objects were sometimes moved to the old generation at",
    'birth, by chance of what ran before (ajv `allErrors` on the flat invalid payload: 65 ns a call in some',
    "runs, 200–420 ns in others; eventry's figures did not move), so a row measured that decision rather",
    "than the validators. Each row's measured closure is code of its own (compiled apart, with its own",
    'type feedback): one closure shared by every row inlined by chance of the rows before it (the group',
    "API's flat valid row read 14 M/s in one run and 32 M/s in the next). Payloads reach each thread as",
    'JSON text and are parsed there, into 16 copies that the calls take in turn, as a consumer validates a',
    'new object with each message: with one object for every call, V8 moved the field reads of a validator',
    "it had inlined out of mitata's loop, and the row measured the loop (docs/decisions/0072);",
    "eventry's options are an object literal, as a caller writes them",
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
    'both modes (ajv compiles one function per mode). eventry returns the',
    'platform 400 body with every problem on invalid payloads, built in full by the call (nothing is left to',
    'build when the body is read or serialised); ajv (defaults) stops at the first error; `ajv allErrors`',
    'collects every error with its message but maps none to a response body. typebox is a boolean check:',
    '`Compile(schema).Check(payload)` answers true or false and builds no error at all, so on invalid',
    'payloads it stops at the first failed test: its invalid rows (over a hundred M/s, a few nanoseconds',
    'a call) measure little more than the loop around the call, and compare with nothing that reports',
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
  ];
}

/** The throughput table: every contender on every row, with the ratios the targets judge. */
function throughput(rows: Row[]): string[] {
  const lines = [
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
  return lines;
}

/** Valid payloads against `JSON.parse` of the same text: the physical limit. */
function againstParse(rows: Row[]): string[] {
  const lines = [
    '### Against the physical limit: `JSON.parse` of the same payload (valid payloads)',
    '',
    '| event | payload | mode | `JSON.parse` | parse + validate | time ratio, derived | target ≤ 1.10, derived |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    if (!row.parse) continue;
    const timeRatio = ratioOf(row.parse.parse, row.parse.parseValidate);
    lines.push(
      `| ${row.event} | ${row.payload} | ${row.mode} | ${fmt(best(row.parse.parse))} | ${fmt(best(row.parse.parseValidate))} | ${timeRatio.toFixed(3)} | ${met(timeRatio <= 1.1)} |`,
    );
  }
  return lines;
}

/** The invalid-payload figure with the full error body, and the cold start table. */
function invalidAndCold(rows: Row[], cold: ColdStart, load: Load): string[] {
  const flatInvalid = rows.find(
    (row) => row.event.startsWith('flat') && !row.valid && row.mode === 'strict',
  )!;
  return [
    '### Invalid payloads with the full error body',
    '',
    `Flat event, strict, 3 problems: ${fmt(median(flatInvalid.ops.eventry!))} (median of rounds; best ${fmt(best(flatInvalid.ops.eventry!))}; target ≥ 1 M/s: ${met(median(flatInvalid.ops.eventry!) >= 1e6)}). Each event has one validator, ajv's all-errors code with each field read once: on a valid payload it does what a first-error one does; an invalid payload is walked once, and the code lists each error's platform item as found, in an array it starts at the first error: a literal where the place's dot path is known when the code is generated, else a fresh item whose texts the run time made once for the place (docs/decisions/0191); that array is the result's errors.`,
    '',
    '### Cold start',
    '',
    ...coldLines(cold, load),
  ];
}

/** The cold start paragraph and table. */
function coldLines(cold: ColdStart, load: Load): string[] {
  const within = (value: Spread) => `${signed(value.median)} [${signed(value.q1)}, ${signed(value.q3)}]`;
  const counted = cold.instructions;
  const countText = counted
    ? ` The instruction column is load-free: the instructions valgrind counts for the process (\`--predictable\`), those over bare node's (${(counted.bare / 1e6).toFixed(0)} M) turned into ms at bare node's median time per instruction; for the peers ${signed(counted.module)} ms and ${signed(counted.package)} ms.`
    : ' (valgrind was not installed: no instruction counts.)';
  const environment = cold.extraCaCerts
    ? ' This machine sets `NODE_EXTRA_CA_CERTS`; the processes run without it, as its certificates are parsed before any code runs, alike in every process (docs/decisions/0199).'
    : '';
  const floor = cold.moduleOverhead.median;
  const under = cold.rows.filter((row) => row.target !== undefined && row.target < floor);
  const floorText = under.map(
    (row) =>
      ` The target of "${row.name}" (+${row.target} ms) is under what importing one empty module takes here (${signed(floor)} ms${counted ? `, ${signed(counted.module)} ms by instructions` : ''}): no package of ES modules meets it on this machine.`,
  );
  return [
    `Whole \`node\` processes, ${cold.runs} interleaved rounds (each starting one process later), 1-minute load average when the bench started: ${load.start[0]!.toFixed(1)}. Each figure over another process is the median of the per-round differences, with their interquartile range in brackets: it shows how far the machine's load moved single runs. Bare \`node -e 0\`: ${cold.node.toFixed(1)} ms; an ES module that imports one empty module file (Node's ES module loader, paid by any consumer that imports a package at all): ${within(cold.moduleOverhead)} ms over it; one that imports an empty npm package by name (Node's resolution of a bare specifier besides): ${within(cold.packageOverhead)} ms over it. What is over the empty module is eventry's own: its modules read, parsed and run, the event's validator set up, the payload validated.${countText}${environment}${floorText.join('')}`,
    '',
    '| process | median | over bare node [IQR] | over importing one empty module [IQR] | over importing one empty package by name [IQR] | instructions over bare node (as ms) | target (over bare node, median) |',
    '|---|---|---|---|---|---|---|',
    ...cold.rows.map(
      (row) =>
        `| ${row.name} | ${row.ms.toFixed(1)} ms | ${within(row.over)} ms | ${within(row.overModule)} ms | ${within(row.overPackage)} ms | ${instructionCell(row, counted?.bare)} | ${row.target === undefined ? '(none)' : `≤ +${row.target} ms: ${met(row.over.median <= row.target)}`} |`,
    ),
    '',
  ];
}

/** Instructions over bare node's, in millions, and as ms: `+21.9 M (+8.2 ms)`. */
function instructionCell(row: ColdRow, bare: number | undefined): string {
  if (row.instructions === undefined || row.instructionsMs === undefined || bare === undefined) return 'n/a';
  return `${signed((row.instructions - bare) / 1e6)} M (${signed(row.instructionsMs)} ms)`;
}
