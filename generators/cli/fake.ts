import { once } from 'node:events';
import { resolve } from 'node:path';
import type { FakeVariant } from '../runtime/testing.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { loadTestingEntry } from '../validate/testing-entry.js';
import type { Container } from './container.js';
import { usageError } from './usage-error.js';

/** Options of `eventry fake`. */
export interface FakeCommandOptions {
  count?: number;
  seed?: string;
  variant?: FakeVariant;
  invalid?: boolean;
  out?: string;
}

/**
 * `eventry fake KEY`: NDJSON payloads of one event from its built group package's `testing` entry point,
 * one `{"event": KEY, "payload": ...}` per line (what `eventry validate --ndjson` reads). Payload `i` is
 * drawn with the seed `<seed>/<i>` (default seed `0`), so a run is repeatable. `--invalid` writes the
 * payloads with one known problem each, with `problem` and the promised `error` item on the line.
 */
export async function runFake(key: string, options: FakeCommandOptions, io: Container): Promise<ExitStatus> {
  const usage = (message: string): ExitStatus => usageError(io, 'fake', message);
  const outDir = resolve(io.cwd, options.out ?? 'packages');
  const entry = await loadTestingEntry(outDir, key);
  if (!entry.ok)
    return usage(
      entry.problem.code === 'no-packages'
        ? `${entry.problem.message}: run \`npm run build\` first (or pass --out).`
        : entry.problem.message,
    );
  const { testing } = entry;
  const seed = options.seed ?? '0';
  const lines: string[] = [];
  if (options.invalid) {
    const payloads = testing.invalid(key, { seed });
    for (const one of payloads.slice(0, options.count ?? payloads.length))
      lines.push(
        JSON.stringify({ event: key, problem: one.problem, error: one.error, payload: one.payload }),
      );
  } else {
    const variant = options.variant ?? 'random';
    for (let i = 0; i < (options.count ?? 1); i++)
      lines.push(
        JSON.stringify({ event: key, payload: testing.fake(key, { seed: `${seed}/${i}`, variant }) }),
      );
  }
  await write(lines, io.stdout);
  return EXIT.ok;
}

/** Writes the lines to stdout in blocks, waiting whenever it is full (a million lines in constant memory). */
async function write(lines: string[], stdout: Container['stdout']): Promise<void> {
  for (let start = 0; start < lines.length; start += 1000) {
    const block = `${lines.slice(start, start + 1000).join('\n')}\n`;
    if (!stdout.write(block)) await once(stdout, 'drain');
  }
}
