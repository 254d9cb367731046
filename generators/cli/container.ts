import type { Readable, Writable } from 'node:stream';

/** An output stream a command writes to; `isTTY` and `columns` when it is a terminal. */
export type OutputStream = Writable & { readonly isTTY?: boolean; readonly columns?: number };

/**
 * Everything a command may use of the world it runs in, given to it rather than read from `process`
 * (as buf's `app.Container`): the standard streams, the environment and the working folder. The
 * command line builds one from the process; tests give in-memory streams, so runs never share globals.
 */
export interface Container {
  readonly stdin: Readable;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The working folder every relative path on the command line is resolved against. */
  readonly cwd: string;
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
