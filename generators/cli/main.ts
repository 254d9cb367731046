import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands.js';

/** Usage errors exit 2, as every eventry command documents. */
export const EXIT_USAGE = 2;

/** Builds the `eventry` program; each command module is imported only when that command runs. */
export function createProgram(): Command {
  const program = new Command('eventry')
    .description('Event catalogue schema registry and codegen toolkit')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerCommands(program);
  return program;
}

/** Runs the CLI and returns its exit code instead of calling `process.exit`. */
export async function runCli(argv: string[]): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      return EXIT_USAGE;
    }
    throw error;
  }
}
