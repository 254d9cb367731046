import { createRequire } from 'node:module';

// commander is CommonJS: required here, not imported, to spare every command Node's ES module wrapper
// around it at start-up (docs/decisions/0020-thin-cli-container.md).
const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

export const { Command, CommanderError, InvalidArgumentError, Option } = commander;
export type Command = import('commander').Command;
export type CommanderError = import('commander').CommanderError;
export type Option = import('commander').Option;
