import { Readable, Writable } from 'node:stream';
import { runCli } from '../../generators/cli/main.js';
import { REPO } from '../helpers.js';

/** What a finished in-process command gave back, as `runCli` in test/helpers.ts does for a process. */
export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Where and with what the in-process command runs. */
export interface InProcessOptions {
  /** The working directory (default: the repository root, as the spawned CLI). */
  cwd?: string;
  /** Environment variables set for the run, over the test process's; `undefined` unsets one. */
  env?: Record<string, string | undefined>;
  /** The whole of stdin, already ended (default: empty; for streaming stdin, spawn the CLI). */
  input?: string;
}

/**
 * Runs `eventry ARGS` inside the test process through the CLI's own `runCli`, with in-memory streams,
 * the given working directory and environment: the same exit code and output as the compiled CLI,
 * without starting Node for every command, and without touching any process global, so runs may
 * overlap. Tests that need a real process (kills, crashes, pipes, heap limits, streaming stdin) spawn it.
 */
export async function runCliInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const stdout = memoryOutput();
  const stderr = memoryOutput();
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const status = await runCli(['node', 'eventry', ...args], {
    stdin: Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env,
    cwd: options.cwd ?? REPO,
  });
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}

/** A writable stream that keeps what is written to it. */
function memoryOutput(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
