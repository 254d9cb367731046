import { resolve } from 'node:path';
import type { Command } from './commander.js';
import type { Container } from './container.js';
import { declareBuild, declareDocs, declarePublish, declareVersion } from './declare/build.js';
import { declareCheck, declareDiff, declareLint } from './declare/compare.js';
import type { Finish } from './declare/finish.js';
import { declareFake, declareUpcast, declareUsage, declareValidate } from './declare/payloads.js';
import { declareMcp, declareRegister, declareRegistry, declareServe } from './declare/registry.js';

/**
 * The commands in the order `eventry --help` lists them. Each declares its options in `declare/` and
 * imports its implementation lazily, so `eventry build` with nothing to do never loads ajv, the emitters
 * or the diff.
 */
const COMMANDS = [
  declareBuild,
  declarePublish,
  declareDiff,
  declareCheck,
  declareLint,
  declareVersion,
  declareServe,
  declareMcp,
  declareRegister,
  declareRegistry,
  declareDocs,
  declareUsage,
  declareValidate,
  declareFake,
  declareUpcast,
] as const;

/** The one registry of commands. */
export function registerCommands(program: Command, io: Container, finish: Finish): void {
  // A command that reads the output first finishes or discards an interrupted build (see execute/write.ts);
  // `eventry build` does so itself.
  program.hook('preAction', async (_program, command) => {
    const out: unknown = command.opts().out;
    // `registry export` writes no build output: its folder is its own (generators/serve/export/write.ts).
    if (['build', 'docs', 'export'].includes(command.name()) || typeof out !== 'string') return;
    const { recoverOutput } = await import('../execute/write.js');
    recoverOutput(resolve(io.cwd, out));
  });
  for (const declare of COMMANDS) declare(program, io, finish);
}
