import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';
import type { ChildArguments } from './instructions-child.js';
import { machineLine } from './measure.js';
import { benchPayloads, buildBenchPackages, EVENTS, type Json } from './validate-setup.js';

const CHILD = fileURLToPath(new URL('./instructions-child.js', import.meta.url));
/** Validations counted per row and contender, beyond the warm-up. */
const CALLS = 200_000;
type Contender = ChildArguments['contender'];
const CONTENDERS: Contender[] = ['eventry', 'ajv'];

interface Count {
  event: string;
  payload: string;
  mode: 'strict' | 'tolerant';
  perCall: Record<Contender, number>;
}

/**
 * Instructions per validation of the valid payloads of the validation bench, eventry's group API
 * against ajv at its defaults, counted by valgrind: the work each does per call, which unlike the
 * throughput of a shared machine comes out the same from run to run (docs/decisions/0069).
 */
export async function runInstructionsBench(): Promise<string> {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    throw new Error(
      'valgrind is not installed (Debian: apt-get install valgrind); this suite counts with it',
    );
  }
  const work = mkdtempSync(join(tmpdir(), 'eventry-bench-instructions-'));
  try {
    const { out, model } = buildBenchPackages(work);
    const jobs: { count: Count; contender: Contender; args: ChildArguments }[] = [];
    const counts: Count[] = [];
    for (const [kind, key] of EVENTS) {
      const { valid, undocumented, schemas } = benchPayloads(model, out, key);
      const cases: [string, 'strict' | 'tolerant', Json][] = [
        ['valid', 'strict', valid],
        ['valid', 'tolerant', valid],
        ['valid + undocumented fields', 'tolerant', undocumented],
      ];
      for (const [label, mode, payload] of cases) {
        const schemaFile = join(work, `${kind}-${mode}.schema`);
        writeFileSync(schemaFile, serialize(schemas[mode]));
        const count: Count = {
          event: `${kind} \`${key}\``,
          payload: label,
          mode,
          perCall: { eventry: 0, ajv: 0 },
        };
        counts.push(count);
        for (const contender of CONTENDERS) {
          const args: ChildArguments = {
            contender,
            out,
            slug: model.events[key]!.group,
            key,
            mode,
            payload: JSON.stringify(payload),
            schemaFile,
            valid: true,
            calls: CALLS,
          };
          jobs.push({ count, contender, args });
        }
      }
    }
    // Counts do not depend on timing: two at a time, one per core.
    let index = 0;
    const worker = async (): Promise<void> => {
      for (let job = jobs[index++]; job !== undefined; job = jobs[index++]) {
        const file = join(work, `job-${index}.json`);
        const baseline = await instructions(file, { ...job.args, calls: 0 });
        const counted = await instructions(file, job.args);
        job.count.perCall[job.contender] = (counted - baseline) / CALLS;
      }
    };
    await Promise.all([worker(), worker()]);
    return report(counts);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The instructions valgrind counts for one child process. */
function instructions(file: string, args: ChildArguments): Promise<number> {
  writeFileSync(file, JSON.stringify(args));
  const command = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null'];
  // `--predictable`: V8 compiles on the main thread, so the count does not depend on thread timing.
  const child = spawn('valgrind', [...command, process.execPath, '--predictable', CHILD, file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => {
      const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
      if (status !== 0 || refs === null)
        reject(new Error(`valgrind run failed (${status}): ${stderr.slice(-800)}`));
      else resolve(Number(refs[1]!.replaceAll(',', '')));
    });
  });
}

function report(counts: Count[]): string {
  const number = (value: number) => Math.round(value).toLocaleString('en-US');
  return [
    '## Validation: instructions per call (valgrind)',
    '',
    `${machineLine()} Instructions a validation executes, counted by valgrind (\`cachegrind\`, no cache`,
    'simulation) in a child process run with `node --predictable` (V8 compiles on the main thread): a',
    `run of ${CALLS.toLocaleString('en-US')} validations after a warm-up of 100,000, less a run of the warm-up alone.`,
    'The payloads, schemas and peer are those of the validation table (valid payloads; each call takes',
    "the next of 16 parsed copies; ajv at its defaults compiles the schema as the bench's threads receive",
    "it; eventry's group API with the key and options as literals). Unlike throughput on a shared machine,",
    'these counts come out the same from run to run. They measure work, not time: a call waiting on memory',
    'executes no instructions, so the throughput table remains the measure of speed.',
    '',
    '| event | payload | mode | eventry | ajv (defaults) | ajv ÷ eventry (derived) |',
    '|---|---|---|---:|---:|---:|',
    ...counts.map(
      (count) =>
        `| ${count.event} | ${count.payload} | ${count.mode} | ${number(count.perCall.eventry)} | ${number(count.perCall.ajv)} | ${(count.perCall.ajv / count.perCall.eventry).toFixed(2)}× |`,
    ),
  ].join('\n');
}
