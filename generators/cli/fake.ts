import { resolve } from 'node:path';
import type { FakeVariant } from '../runtime/testing.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { fakeLines, writeLines } from '../validate/fake-lines.js';
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
 * one `{"event": KEY, "payload": ...}` per line (what `eventry validate --ndjson` reads); the lines and
 * their seeds are `fakeLines`'s. `--invalid` writes the payloads with one known problem each, with
 * `problem` and the promised `error` item on the line.
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
  // Written as drawn, waiting on a full stdout: flat memory for any count. A closed stdout (`| head -1`)
  // ends the run quietly (the command line exits with SIGPIPE's status, see main.ts).
  await writeLines(fakeLines(entry.testing, { key, ...options }), io.stdout);
  return EXIT.ok;
}
