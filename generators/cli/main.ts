import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { Command, CommanderError } from './commander.js';
import { registerCommands } from './commands.js';
import type { Container } from './container.js';
import { usageLine } from './usage-error.js';

/** commander's help width when the output is not a terminal. */
const HELP_WIDTH = 80;

/**
 * Builds the `eventry` program over a container; each command module is imported only when that
 * command runs, and hands its exit status to `finish`.
 */
export function createProgram(io: Container, finish: (status: ExitStatus) => void = () => {}): Command {
  const program = new Command('eventry')
    .description('Event catalogue schema registry and codegen toolkit')
    .version(toolVersion(), '-V, --version', 'print the eventry version')
    .exitOverride()
    // commander writes help, versions and usage errors through the container too (its default is process).
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || HELP_WIDTH,
      getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || HELP_WIDTH,
      getOutHasColors: () => hasColours(io, io.stdout),
      getErrHasColors: () => hasColours(io, io.stderr),
    })
    .addHelpText(
      'after',
      '\nExit codes: 0 success; 1 the input has problems (a bad catalogue, an invalid payload, a breaking change);\n2 a usage error (bad arguments, a missing file); 70 an internal error (a bug: EVENTRY_DEBUG=1 shows where).',
    );
  registerCommands(program, io, finish);
  usageErrorsInOneStyle(program, '');
  return program;
}

/**
 * commander's usage errors (an unknown option or command, a missing or excess argument, a value out of
 * its choices) in the style of every command's own: one line, then the help command (`usageLine`).
 */
function usageErrorsInOneStyle(command: Command, path: string): void {
  command.configureOutput({ outputError: (text, write) => write(usageLine(path, text)) });
  for (const sub of command.commands)
    usageErrorsInOneStyle(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
}

/**
 * Runs the CLI (`argv` as `process.argv`: node, script, arguments) with the given streams, environment
 * and working folder, and returns its exit status instead of calling `process.exit`. An exception that
 * escapes a command is a bug: it is reported in one line (the stack only with `EVENTRY_DEBUG=1`),
 * never as a raw stack trace.
 */
export async function runCli(argv: readonly string[], io: Container): Promise<ExitStatus> {
  let status: ExitStatus = EXIT.ok;
  const program = createProgram(io, (finished) => {
    status = finished;
  });
  try {
    await program.parseAsync([...argv]);
    return status;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      // `eventry help [command]` asked for help (exit 0); `eventry` alone shows it as a usage error.
      if (error.code === 'commander.help') return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return EXIT.usage;
    }
    const detail = io.env.EVENTRY_DEBUG
      ? String((error as Error)?.stack ?? error)
      : error instanceof Error
        ? error.message
        : String(error);
    io.stderr.write(
      `eventry: internal error: ${detail}\n(this is a bug in eventry; EVENTRY_DEBUG=1 shows where it happened)\n`,
    );
    return EXIT.internal;
  }
}

/** Whether a stream takes colours: commander's own rule (NO_COLOR, FORCE_COLOR, a colour terminal), on the container. */
function hasColours(io: Container, stream: Container['stdout']): boolean {
  const { NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE } = io.env;
  if (NO_COLOR || FORCE_COLOR === '0' || FORCE_COLOR === 'false') return false;
  if (FORCE_COLOR || CLICOLOR_FORCE !== undefined) return true;
  return Boolean(stream.isTTY && (stream as { hasColors?: () => boolean }).hasColors?.());
}

/** The toolkit's own version, from the package.json above this module (in the source tree or dist/). */
function toolVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'eventry' && pkg.version) return pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/** The status a shell gives a process killed by SIGPIPE. */
const CLOSED_OUTPUT = 128 + 13;

/**
 * Makes a closed stdout (`eventry ... | head -1`) end the run quietly through `io.exit`, with the status
 * of SIGPIPE, instead of an unhandled EPIPE error or a misleading message. The command line calls it
 * once, before `runCli`, on the container it builds from the process.
 */
export function exitQuietlyOnClosedOutput(io: Container): void {
  for (const stream of [io.stdout, io.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') io.exit(CLOSED_OUTPUT);
      // Any other failure to write the output is an I/O error; there is nowhere left to report it.
      else io.exit(EXIT.usage);
    });
  }
}
