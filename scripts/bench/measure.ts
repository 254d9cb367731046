import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Wall time of one command (ms), including process start; throws when it fails. */
export function timeCommand(command: string, args: string[], options: { cwd?: string } = {}): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: options.cwd, encoding: 'utf8' });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return elapsed;
}

/** The line that says where the figures come from. */
export function machineLine(): string {
  return `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}.`;
}

/** Formats milliseconds for tables. */
export function formatMs(ms: number): string {
  return ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`;
}

/** GNU time, whose `%M` is a child's peak RSS. */
const TIME = '/usr/bin/time';

/** One whole process: wall time (ms) and peak RSS (MiB) of the child, when it can be measured. */
export interface TimedRun {
  ms: number;
  rssMiB?: number;
}

/**
 * Runs `node args` as a child, timing it; under GNU time when present. `okStatus` lists the exit codes
 * that are not failures (`diff` exits 1 on breaking changes).
 */
export function runNodeTimed(args: string[], okStatus: readonly number[] = [0]): TimedRun {
  const timed = existsSync(TIME);
  const command = timed ? TIME : process.execPath;
  const argv = timed ? ['-f', '%M', process.execPath, ...args] : args;
  const started = performance.now();
  const result = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (!okStatus.includes(result.status ?? -1)) {
    throw new Error(`node ${args.join(' ')} failed (${result.status}): ${result.stderr.slice(-2000)}`);
  }
  const kib = timed ? Number(result.stderr.trim().split('\n').at(-1)) : Number.NaN;
  return Number.isFinite(kib) ? { ms, rssMiB: kib / 1024 } : { ms };
}

/** Edits one group file of a catalogue: a `description:` before its `title:` (that group's package changes). */
export function editGroup(file: string, tag: string): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace('title: ', `description: Edit ${tag}.\n  title: `));
}

/**
 * Nanoseconds per call of `call` over `payloads`: three warm-up passes, then passes for at least `minMs`.
 * A truthy result is counted, so the engine cannot drop the call as unused.
 */
export function nsPerCall(
  call: (payload: unknown) => unknown,
  payloads: readonly unknown[],
  minMs: number,
): number {
  let sink = 0;
  for (let i = 0; i < 3; i++) for (const payload of payloads) if (call(payload)) sink++;
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    for (const payload of payloads) if (call(payload)) sink++;
    calls += payloads.length;
    elapsed = performance.now() - started;
  } while (elapsed < minMs);
  if (sink < 0) console.log(sink);
  return (elapsed * 1e6) / calls;
}
