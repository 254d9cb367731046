import type { Readable, Writable } from 'node:stream';

/** An output stream a command writes to; `isTTY` and `columns` when it is a terminal. */
export type OutputStream = Writable & { readonly isTTY?: boolean; readonly columns?: number };

/** The signals that ask a long-running command (`eventry serve`) to stop. */
export type StopSignal = 'SIGTERM' | 'SIGINT';

/**
 * Everything a command may use of the world it runs in, given to it rather than read from `process`
 * (as buf's `app.Container`): the standard streams, the environment, the working folder, the stop
 * signals and the way out. The command line builds one from the process; tests give in-memory streams
 * and send the signals themselves, so runs never share globals.
 */
export interface Container {
  readonly stdin: Readable;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The working folder every relative path on the command line is resolved against. */
  readonly cwd: string;
  /** Calls `handler` each time `signal` arrives; returns what removes it again. */
  onSignal(signal: StopSignal, handler: () => void): () => void;
  /** Ends the run at once with `status`, for when its output is gone and nothing is left to say. */
  exit(status: number): void;
}

/** Where a command prints lines (`publish --json` sends the build's lines to stderr, keeping stdout JSON). */
export interface Printer {
  log(text: string): void;
  error(text: string): void;
}

/** Prints lines on the container's stdout (`log`) and stderr (`error`). */
export function printerOf(io: Container): Printer {
  return {
    log: (text) => io.stdout.write(`${text}\n`),
    error: (text) => io.stderr.write(`${text}\n`),
  };
}
