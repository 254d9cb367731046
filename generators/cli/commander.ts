import { createRequire } from 'node:module';

// commander is CommonJS: required here, not imported. Node's ES module wrapper around it (a lexer pass
// over its source to find the named exports, and a module of its own) cost every command 7-10 ms of
// start-up, a thirtieth of a no-op build.
const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

export const { Command, CommanderError, InvalidArgumentError, Option } = commander;
export type Command = import('commander').Command;
export type CommanderError = import('commander').CommanderError;
export type Option = import('commander').Option;
