import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import type { Container } from './container.js';

/**
 * The one style of a usage error, for commander's own (an unknown option, a missing or excess argument,
 * a value out of its choices) and each command's: one line saying what is wrong, then the help command
 * to run. `command` is the command's path (`fake`, `usage scan`; empty for `eventry` itself).
 */
export function usageLine(command: string, message: string): string {
  const name = command === '' ? 'eventry' : `eventry ${command}`;
  const what = message
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return `${name}: ${what}\nRun \`${name} --help\` for usage.\n`;
}

/** Writes a usage error (`usageLine`) to stderr and gives the usage exit status. */
export function usageError(io: Container, command: string, message: string): ExitStatus {
  io.stderr.write(usageLine(command, message));
  return EXIT.usage;
}
