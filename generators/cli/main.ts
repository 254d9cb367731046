import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT_INTERNAL, EXIT_USAGE } from '../shared/exit-codes.js';
import { Command, CommanderError } from './commander.js';
import { registerCommands } from './commands.js';

/** Builds the `eventry` program; each command module is imported only when that command runs. */
export function createProgram(): Command {
  const program = new Command('eventry')
    .description('Event catalogue schema registry and codegen toolkit')
    .version(toolVersion(), '-V, --version', 'print the eventry version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) })
    .addHelpText(
      'after',
      '\nExit codes: 0 success; 1 the input has problems (a bad catalogue, an invalid payload, a breaking change);\n2 a usage error (bad arguments, a missing file); 70 an internal error (a bug: EVENTRY_DEBUG=1 shows where).',
    );
  registerCommands(program);
  // A usage error is one line and where to read more, not the whole help under it.
  program.showHelpAfterError('(run `eventry --help` for the commands)');
  for (const command of program.commands)
    command.showHelpAfterError(`(run \`eventry ${command.name()} --help\` for its usage)`);
  return program;
}

/**
 * Runs the CLI and returns its exit code instead of calling `process.exit`. An exception that escapes
 * a command is a bug: it is reported in one line (the stack only with `EVENTRY_DEBUG=1`), never as a
 * raw stack trace.
 */
export async function runCli(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      // `eventry help [command]` asked for help (exit 0); `eventry` alone shows it as a usage error.
      if (error.code === 'commander.help') return error.exitCode === 0 ? 0 : EXIT_USAGE;
      return EXIT_USAGE;
    }
    const detail = process.env.EVENTRY_DEBUG
      ? String((error as Error)?.stack ?? error)
      : error instanceof Error
        ? error.message
        : String(error);
    process.stderr.write(
      `eventry: internal error: ${detail}\n(this is a bug in eventry; EVENTRY_DEBUG=1 shows where it happened)\n`,
    );
    return EXIT_INTERNAL;
  }
}

/**
 * Makes a closed stdout (`eventry ... | head -1`) end the process quietly, with the status a shell
 * gives a process killed by SIGPIPE (141), instead of an unhandled EPIPE error or a misleading message.
 */
export function exitQuietlyOnClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') process.exit(128 + 13);
      // Any other failure to write the output is an I/O error; there is nowhere left to report it.
      process.exit(EXIT_USAGE);
    });
  }
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
