import { EventEmitter } from 'node:events';
import { PassThrough, Readable, Writable } from 'node:stream';
import type { Command } from '../../generators/cli/commander.js';
import type { StopSignal } from '../../generators/cli/container.js';
import { createProgram, runCli } from '../../generators/cli/main.js';
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

/** A command started inside the test process: its output so far, its stop signals, its end. */
export interface InProcessRun {
  /** What it wrote to stdout so far. */
  stdout(): string;
  /** Sends `signal` through the container, as the process's SIGTERM or SIGINT would reach it. */
  signal(signal: StopSignal): void;
  /** The statuses it asked to exit with through the container (`exit`), in order. */
  readonly exits: number[];
  /** Its status and whole output once `runCli` returned. */
  readonly done: Promise<CliResult>;
}

/**
 * Starts `eventry ARGS` inside the test process through the CLI's own `runCli`, with in-memory streams,
 * the given working directory and environment, and stop signals the test sends itself (`signal`):
 * the same exit code and output as the compiled CLI, without starting Node for every command, and
 * without touching any process global, so runs may overlap. Tests that need a real process (kills,
 * crashes, pipes, heap limits, streaming stdin) spawn it.
 */
export function startCliInProcess(args: string[], options: InProcessOptions = {}): InProcessRun {
  const stdout = memoryOutput();
  const stderr = memoryOutput();
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const signals = new EventEmitter();
  const exits: number[] = [];
  const done = runCli(['node', 'eventry', ...args], {
    stdin: Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    env,
    cwd: options.cwd ?? REPO,
    onSignal: (signal, handler) => {
      signals.on(signal, handler);
      return () => signals.off(signal, handler);
    },
    exit: (status) => exits.push(status),
  }).then((status) => ({ status, stdout: stdout.text(), stderr: stderr.text() }));
  return { stdout: stdout.text, signal: (signal) => signals.emit(signal), exits, done };
}

/** Runs `eventry ARGS` inside the test process to its end (see `startCliInProcess`). */
export function runCliInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  return startCliInProcess(args, options).done;
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

/** The CLI's command tree, built over streams nobody reads: for tests that list or inspect its commands. */
export function inspectedProgram(): Command {
  return createProgram({
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    cwd: REPO,
    onSignal: () => () => {},
    exit: () => {},
  });
}

/** Every command below `command`, with its path (`['usage', 'scan']`), parents before their subcommands. */
export function commandTree(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  return command.commands.flatMap((sub) => [
    { path: [...path, sub.name()], command: sub },
    ...commandTree(sub, [...path, sub.name()]),
  ]);
}
