import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Catalogue } from '../../generators/model.js';
import { startScriptWorker } from '../../generators/shared/worker.js';
import { measureColdStart } from './validate-cold.js';
import { type Mode, type Row, report } from './validate-report.js';
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

/**
 * Rounds per row: a row's ratio is the median of its per-round ratios. With 5, two runs of the same code
 * on this shared machine read rows a third apart (flat invalid, strict: 0.90x, then 0.68x); 11 take a
 * minute more per run.
 */
const THROUGHPUT_ROUNDS = 11;

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
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
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
