import { type Command, Option } from 'commander';

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

  program
    .command('publish')
    .description('publish every group package whose version the registry does not have yet (npm publish)')
    .requiredOption(
      '-r, --registry <url>',
      'npm registry URL; credentials come from your ~/.npmrc, as for npm',
    )
    .option('-o, --out <dir>', 'packages directory', 'packages')
    .option('-n, --dry-run', 'check the registry and print the plan; publish nothing')
    .option('--access <level>', 'npm access for a first publish: public or restricted')
    .option('--json', 'print the plan and the outcome as JSON')
    .action(async (options) => {
      const { runPublish } = await import('./publish.js');
      process.exitCode = await runPublish(options);
    });

  program
    .command('diff')
    .description(
      'compare two catalogues (git refs, catalogue directories or OpenAPI documents) and classify every change',
    )
    .argument('<old>', 'git ref (main, HEAD~3, a tag), catalogue directory or compiled openapi.json')
    .argument('<new>', 'git ref, catalogue directory or compiled openapi.json')
    .addOption(
      new Option('--format <format>', 'report format')
        .choices(['text', 'markdown', 'json', 'github'])
        .default('text'),
    )
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 when a change this serious is found')
        .choices(['breaking', 'non-breaking', 'never'])
        .default('breaking'),
    )
    .option('-c, --catalogue <dir>', 'catalogue directory inside a git commit', 'catalogue')
    .action(async (old: string, now: string, options) => {
      const { runDiff } = await import('./diff.js');
      process.exitCode = await runDiff(old, now, options);
    });

  program
    .command('check')
    .description(
      'version policy gate: fail when an existing event version changed in a breaking way since --base',
    )
    .requiredOption(
      '-b, --base <ref>',
      'git ref (or catalogue directory) to compare with, e.g. main or HEAD~1',
    )
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'github']).default('text'))
    .action(async (options) => {
      const { runCheck } = await import('./check.js');
      process.exitCode = await runCheck(options);
    });

  program
    .command('version')
    .description('bump each group package from the diff since its last release and prepend its CHANGELOG.md')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('-o, --out <dir>', 'packages directory', 'packages')
    .option('-n, --dry-run', 'print the new versions; write nothing')
    .action(async (options) => {
      const { runVersion } = await import('./version.js');
      process.exitCode = await runVersion(options);
    });

  program
    .command('validate')
    .description(
      'validate payloads with the built group packages: JSON files against one event, or an NDJSON stream',
    )
    .argument('[key]', 'event key, e.g. account.created-v1 (with JSON files)')
    .argument('[files...]', 'JSON files, one payload each')
    .option('--ndjson <file>', 'NDJSON file (`-` for stdin), one {"event": KEY, "payload": {...}} per line')
    .addOption(
      new Option('--mode <mode>', 'strict (producers) or tolerant (consumers: undocumented fields accepted)')
        .choices(['strict', 'tolerant'])
        .default('strict'),
    )
    .addOption(
      new Option(
        '--format <format>',
        'output: json lines (default with --ndjson) or a text summary (default with files)',
      ).choices(['json', 'text']),
    )
    .option('-o, --out <dir>', 'packages directory, as built by `eventry build`', 'packages')
    .addHelpText('after', '\nExit status: 0 all valid, 1 some invalid, 2 usage or I/O error.')
    .action(async (key: string | undefined, files: string[], options) => {
      const { runValidate } = await import('./validate.js');
      process.exitCode = await runValidate(key, files, options);
    });
}
