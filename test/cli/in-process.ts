import { Readable } from 'node:stream';
import { format } from 'node:util';
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
  /** Environment variables set for the run; `undefined` unsets one. */
  env?: Record<string, string | undefined>;
  /** The whole of stdin, already ended (for streaming stdin, spawn the CLI). */
  input?: string;
}

let running = false;

/**
 * Runs `eventry ARGS` inside the test process through the CLI's own `runCli`, with stdout, stderr,
 * stdin, the working directory, the environment and `process.exitCode` swapped for the run and restored
 * after: the same exit code and output as the compiled CLI, without starting Node for every command.
 * Tests that need a real process (kills, crashes, pipes, heap limits, streaming stdin) still spawn it.
 */
export async function runCliInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  // The swapped globals are the process's own: two runs at once would write into each other's output.
  if (running) throw new Error('runCliInProcess: one command at a time (the CLI writes to process.stdout)');
  running = true;
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const capture = (into: Buffer[]) =>
    ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      into.push(typeof chunk === 'string' ? Buffer.from(chunk, toEncoding(encoding)) : Buffer.from(chunk));
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => done());
      return true;
    }) as typeof process.stdout.write;
  const line =
    (into: Buffer[]) =>
    (...values: unknown[]) => {
      into.push(Buffer.from(`${format(...values)}\n`));
    };

  const saved = {
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
    console: { log: console.log, info: console.info, warn: console.warn, error: console.error },
    stdin: Object.getOwnPropertyDescriptor(process, 'stdin'),
    cwd: process.cwd(),
    exitCode: process.exitCode,
    env: new Map<string, string | undefined>(),
  };
  const env: Record<string, string | undefined> = { NO_COLOR: '1', ...options.env };
  try {
    for (const [name, value] of Object.entries(env)) {
      saved.env.set(name, process.env[name]);
      setEnv(name, value);
    }
    process.chdir(options.cwd ?? REPO);
    process.exitCode = undefined;
    process.stdout.write = capture(stdout);
    process.stderr.write = capture(stderr);
    // The Console vitest installs does not write through process.stdout; the CLI's console lines are output too.
    console.log = console.info = line(stdout);
    console.warn = console.error = line(stderr);
    if (options.input !== undefined) {
      const stdin = Readable.from([Buffer.from(options.input)]);
      Object.defineProperty(process, 'stdin', { value: stdin, configurable: true, enumerable: true });
    }
    const status = await runCli(['node', 'eventry', ...args]);
    return {
      status,
      stdout: Buffer.concat(stdout).toString('utf8'),
      stderr: Buffer.concat(stderr).toString('utf8'),
    };
  } finally {
    process.stdout.write = saved.stdoutWrite;
    process.stderr.write = saved.stderrWrite;
    Object.assign(console, saved.console);
    if (saved.stdin) Object.defineProperty(process, 'stdin', saved.stdin);
    process.chdir(saved.cwd);
    process.exitCode = saved.exitCode;
    for (const [name, value] of saved.env) setEnv(name, value);
    running = false;
  }
}

function setEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

function toEncoding(encoding: unknown): BufferEncoding {
  return typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8';
}
