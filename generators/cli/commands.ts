import type { Command } from 'commander';

/**
 * The one registry of commands. Each entry declares its options here and imports its implementation
 * lazily, so `eventry build` with nothing to do never loads ajv, the emitters or the diff.
 */
export function registerCommands(program: Command): void {
  program
    .command('build')
    .description('compile the catalogue into schemas, OpenAPI, AsyncAPI and the group packages')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('-o, --out <dir>', 'packages directory', 'packages')
    .option('-f, --force', 'rebuild even when nothing changed')
    .action(async (options) => {
      const { runBuild } = await import('./build.js');
      process.exitCode = await runBuild(options);
    });
}
