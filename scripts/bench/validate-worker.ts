import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { validator as schemasafe } from '@exodus/schemasafe';
import type Ajv2020 from 'ajv/dist/2020.js';
import { do_not_optimize, measure } from 'mitata';
import { Compile } from 'typebox/compile';
import { createAjv } from '../../generators/emit/package/validators.js';
import type { EventApi, GroupApi, ValidateOptions } from '../../generators/runtime/runtime.js';
import { createPeerAjv } from './peer-ajv.js';

/**
 * One contender of the validation bench (`validate.ts`), alone in a thread of its own: its own V8
 * heap and type feedback, as in an application using that one library. In one heap, ajv `allErrors`
 * took 220–420 ns a call on the flat invalid payload beside eventry, against 65 ns alone (V8 pretenured
 * its error objects by allocation site; `contenderThreads` turns that off for these threads, as it
 * also struck a contender alone in its thread by chance of the rows before).
 */
export type Contender =
  | 'eventry'
  | 'eventry event'
  | 'ajv'
  | 'ajv allErrors'
  | 'ajv eventry options'
  | 'schemasafe'
  | 'typebox';

export const CONTENDERS: readonly Contender[] = [
  'eventry',
  'eventry event',
  'ajv',
  'ajv allErrors',
  'ajv eventry options',
  'schemasafe',
  'typebox',
];

/** What the thread is started with. */
export interface ContenderData {
  contender: Contender;
  /** The built packages' folder. */
  out: string;
}

/** One measurement asked of a contender's thread. */
export interface MeasureRequest {
  /** The row's name: each row's measured code is compiled apart (see `own`). */
  row: string;
  slug: string;
  key: string;
  mode: 'strict' | 'tolerant';
  /** The JSON Schema the peers compile for this mode (closed for strict, open for tolerant). */
  schema: Record<string, unknown>;
  /** The payload, as text: parsed here, so the object is made in this thread as `JSON.parse` makes it. */
  payload: string;
  /** Whether the payload is valid: each contender must say so. */
  valid: boolean;
  cpuMs: number;
  /** Instead: `JSON.parse` of the payload alone (`ns`), and parsed + validated (`parseValidateNs`). */
  parse?: boolean;
}

export type MeasureReply = { ok: true; ns: number; parseValidateNs?: number } | { ok: false; error: string };

type Check = (payload: unknown) => unknown;

/** Validators made once per event and mode, as an application keeps them. */
const checks = new Map<string, Check>();
/** This thread's ajv (each thread runs one contender). */
let ajv: Ajv2020.default | undefined;

/** The ajv instance an ajv contender compiles with: the peer at its defaults, or eventry's options where labelled so. */
export function ajvOf(contender: 'ajv' | 'ajv allErrors' | 'ajv eventry options'): Ajv2020.default {
  return contender === 'ajv eventry options'
    ? createAjv({ allErrors: false })
    : createPeerAjv({ allErrors: contender === 'ajv allErrors' });
}

async function checkOf({ contender, out }: ContenderData, request: MeasureRequest): Promise<Check> {
  // schemasafe has a function for valid payloads and one for invalid ones (below).
  const id = `${request.key}\0${request.mode}${contender === 'schemasafe' ? `\0${request.valid}` : ''}`;
  let check = checks.get(id);
  if (check !== undefined) return check;
  // Written as a caller writes them, with a literal: V8 compares a literal with the run time's own by
  // identity, where the request's string (structured-cloned from the main thread) is compared character
  // by character, which cost eventry 4 ns a call on every row.
  const options: ValidateOptions = request.mode === 'tolerant' ? { mode: 'tolerant' } : { mode: 'strict' };
  const { key, slug, schema } = request;
  const url = (...parts: string[]) => pathToFileURL([out, slug, ...parts].join('/')).href;
  switch (contender) {
    case 'eventry': {
      // One module instance per mode, as ajv compiles one function per mode. V8 shares one file's code
      // and type feedback between the two: the tolerant rows run on the validator the strict rows warmed.
      const group = (await import(`${url('index.js')}?${request.mode}`)) as GroupApi<Record<string, unknown>>;
      // The key as a caller writes it too, a literal: the request's is a copy made by structured clone.
      check = own(id, `group.validate(${JSON.stringify(key)}, payload, options)`, { group, options });
      break;
    }
    case 'eventry event': {
      const event = (await import(`${url('events', `${key}.js`)}?${request.mode}`)) as EventApi<unknown>;
      check = own(id, 'event.validate(payload, options)', { event, options });
      break;
    }
    case 'ajv':
    case 'ajv allErrors':
    case 'ajv eventry options':
      ajv ??= ajvOf(contender);
      check = ajv.compile(schema) as Check;
      break;
    case 'schemasafe': {
      const first = schemasafe(schema, { mode: 'default', allowUnusedKeywords: true }) as Check;
      const all = schemasafe(schema, {
        mode: 'default',
        allowUnusedKeywords: true,
        includeErrors: true,
        allErrors: true,
      }) as Check;
      // Its first-error function for valid payloads, its all-errors one for invalid ones.
      check = request.valid ? first : all;
      break;
    }
    case 'typebox': {
      const compiled = Compile(schema as never);
      check = own(id, 'compiled.Check(payload)', { compiled });
      break;
    }
  }
  checks.set(id, check);
  return check;
}

/**
 * `(payload) => <expression>` over `names` as code of its own for each `id`: the same text under a
 * comment that names it, so V8 compiles it apart (a function's source is the key of V8's compilation
 * cache) and keeps its type feedback apart. A closure shared by every row saw every row's validator, and
 * what V8 inlined there depended on the rows before: the same group call read 14 M/s in every round of
 * one run and 32 M/s in the next.
 */
function own(id: string, expression: string, names: Record<string, unknown>): Check {
  return compileApart(id, `(payload) => ${expression}`, names) as Check;
}

/** `() => do_not_optimize(<expression>)`, what mitata measures, as code of its own for each `id` (see `own`). */
function measured(id: string, expression: string, names: Record<string, unknown>): () => void {
  return compileApart(id, `() => do_not_optimize(${expression})`, {
    ...names,
    do_not_optimize,
  }) as () => void;
}

/** How many parsed copies of the payload each call takes in turn (see `run`). */
const PAYLOAD_COPIES = 16;

/**
 * What mitata measures on a row's payload: `check` of the next of the payload's parsed copies at each
 * call, as code of its own for each `id` (see `own`).
 */
function measuredOverCopies(id: string, check: Check, copies: unknown[]): () => void {
  const next = `copies[next = (next + 1) % ${copies.length}]`;
  return compileApart(
    id,
    `() => do_not_optimize(check(${next}))`,
    { check, copies, do_not_optimize },
    'let next = 0;',
  ) as () => void;
}

function compileApart(id: string, arrow: string, names: Record<string, unknown>, setup = ''): unknown {
  const label = id.replaceAll('\0', ' ').replaceAll('*/', '');
  const make = new Function(...Object.keys(names), `/* ${label} */ ${setup} return ${arrow};`) as (
    ...values: unknown[]
  ) => unknown;
  return make(...Object.values(names));
}

/** The verdict of a contender's result: a boolean, or eventry's `{ valid }`. */
function verdict(result: unknown): boolean {
  return typeof result === 'object' && result !== null
    ? (result as { valid: boolean }).valid
    : Boolean(result);
}

async function run(data: ContenderData, request: MeasureRequest): Promise<MeasureReply> {
  const { contender } = data;
  const check = await checkOf(data, request);
  // Each call validates another object, as a consumer validates each message it receives: with one
  // object for every call, V8 hoisted the field reads of a validator it had inlined out of mitata's
  // loop, which measured the loop (docs/decisions/0072).
  const copies = Array.from({ length: PAYLOAD_COPIES }, () => JSON.parse(request.payload) as unknown);
  if (copies.some((payload) => verdict(check(payload)) !== request.valid)) {
    return { ok: false, error: `${contender} disagrees on ${request.key} (${request.mode})` };
  }
  const min_cpu_time = request.cpuMs * 1e6;
  const { row } = request;
  if (!request.parse) {
    const stats = await measure(measuredOverCopies(row, check, copies), { min_cpu_time });
    return { ok: true, ns: stats.avg };
  }
  const text = request.payload;
  const parse = await measure(measured(`${row} parse`, 'JSON.parse(text)', { text }), { min_cpu_time });
  const both = await measure(measured(`${row} parse`, 'check(JSON.parse(text))', { check, text }), {
    min_cpu_time,
  });
  return { ok: true, ns: parse.avg, parseValidateNs: both.avg };
}

// In a contender's thread (the bench imports this module for its types and names too).
const port = parentPort;
if (port !== null) {
  const data = workerData as ContenderData;
  port.on('message', (request: MeasureRequest) => {
    run(data, request).then(
      (reply) => port.postMessage(reply),
      (error: unknown) =>
        port.postMessage({ ok: false, error: error instanceof Error ? error.stack : String(error) }),
    );
  });
}
