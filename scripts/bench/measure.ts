import { spawnSync } from 'node:child_process';
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
