import { resolve } from 'node:path';
import { COMPATIBILITY_LEVELS } from '../model.js';
import type { ExitStatus } from '../shared/exit-codes.js';
import { parseByteSize } from '../validate/lines.js';
import { type Command, InvalidArgumentError, Option } from './commander.js';
import type { Container } from './container.js';

/**
 * The one registry of commands. Each entry declares its options here and imports its implementation
 * lazily, so `eventry build` with nothing to do never loads ajv, the emitters or the diff.
 */
export function registerCommands(
  program: Command,
  io: Container,
  finish: (status: ExitStatus) => void,
): void {
  // A command that reads the output first finishes or discards an interrupted build (see build/write.ts);
  // `eventry build` does so itself.
  program.hook('preAction', async (_program, command) => {
    const out: unknown = command.opts().out;
    if (command.name() === 'build' || command.name() === 'docs' || typeof out !== 'string') return;
    const { recoverOutput } = await import('../execute/write.js');
    recoverOutput(resolve(io.cwd, out));
  });
  program
    .command('build')
    .description('compile the catalogue into schemas, OpenAPI, AsyncAPI and the group packages')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('-o, --out <dir>', 'packages directory', 'packages')
    .option('-f, --force', 'rebuild even when nothing changed')
    .option('--no-cache', 'do not reuse what an earlier build kept (.eventry/cache/)')
    .action(async (options) => {
      const { runBuild } = await import('./build.js');
      finish(await runBuild(options, io));
    });

  program
    .command('publish')
    .description('publish every group package whose version the registry does not have yet (npm publish)')
    .requiredOption(
      '-r, --registry <url>',
      'npm registry URL; credentials come from your ~/.npmrc, as for npm',
    )
    .option('-c, --catalogue <dir>', 'catalogue directory, built into --out before packing', 'catalogue')
    .option('-o, --out <dir>', 'packages directory', 'packages')
    .option('-n, --dry-run', 'check the registry and print the plan; publish nothing')
    .option('--access <level>', 'npm access for a first publish: public or restricted')
    .option('--json', 'print the plan and the outcome as JSON')
    .action(async (options) => {
      const { runPublish } = await import('./publish.js');
      finish(await runPublish(options, io));
    });

  program
    .command('diff')
    .description(
      'compare two catalogues (git refs, catalogue directories, OpenAPI documents, published npm: packages) and classify every change',
    )
    .argument(
      '<old>',
      'git ref (main, HEAD~3, a tag), catalogue directory, compiled openapi.json, or npm:@scope/group@1.2.0 (a published group package)',
    )
    .argument('<new>', 'the same kinds as <old>')
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
    .addOption(
      new Option(
        '--level <level>',
        'also give the verdict of a Confluent schema registry at this level (NONE: the registry checks nothing and accepts every new version)',
      ).choices(COMPATIBILITY_LEVELS),
    )
    .addOption(
      new Option(
        '--policy <policy>',
        'JSON Schema policy of that registry (with --level; default STRICT)',
      ).choices(['STRICT', 'LENIENT']),
    )
    .option(
      '-r, --registry <url>',
      'registry of npm: sides (default: the one your npm config names for the scope, as npm install uses)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  eventry diff main catalogue\n  eventry diff npm:@platform-events/account@1.0.0 HEAD --format json\n  eventry diff HEAD~1 HEAD --level FULL --policy LENIENT',
    )
    .action(async (old: string, now: string, options) => {
      const { runDiff } = await import('./diff.js');
      finish(await runDiff(old, now, options, io));
    });

  program
    .command('check')
    .description(
      'version policy gate: fail when an existing event version changed in a breaking way since the base',
    )
    .option(
      '-b, --base <ref>',
      'git ref (or catalogue directory) to compare with, e.g. main; default: $EVENTRY_BASE, else the last release before HEAD',
    )
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'github', 'json', 'markdown']).default('text'))
    .action(async (options) => {
      const { runCheck } = await import('./check.js');
      finish(await runCheck(options, io));
    });

  program
    .command('lint')
    .description(
      'check the catalogue against the lint rule pack: naming, consistency, types, versions, personal data',
    )
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['text', 'json', 'sarif', 'github'])
        .default('text'),
    )
    .option('--max-warnings <n>', 'fail when there are more new warnings than this', count)
    .option(
      '--write-baseline',
      'record every current finding in the baseline file; only new findings fail after',
    )
    .option('--no-baseline', 'report findings the baseline records as new')
    .option('--list-rules', 'list the rules with their default severity')
    .addHelpText(
      'after',
      '\nExit status: 0 passed, 1 new errors (or warnings over --max-warnings) or a bad catalogue, 2 usage error.',
    )
    .action(async (options) => {
      const { runLint } = await import('./lint.js');
      finish(await runLint(options, io));
    });

  program
    .command('version')
    .description('bump each group package from the diff since its last release and prepend its CHANGELOG.md')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('-o, --out <dir>', 'packages directory', 'packages')
    .option('-n, --dry-run', 'print the new versions; write nothing')
    .action(async (options) => {
      const { runVersion } = await import('./version.js');
      finish(await runVersion(options, io));
    });

  program
    .command('serve')
    .description(
      "serve the catalogue's release history as a read-only Confluent Schema Registry (JSON Schema)",
    )
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '8081')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('--access-log', 'print one JSON line per request on stdout')
    .option('--docs <dir>', 'docs portal folder served at /docs/ (written by eventry docs)', '.eventry/site')
    .option('--no-cache', 'load every release from git; write no cache (.eventry/registry/)')
    .option('--packages <dir>', 'built group packages the MCP endpoint (/mcp) validates with', 'packages')
    .option('--poll <seconds>', 'how often to look for a new release or catalogue edit (0: never)', '2')
    .action(async (options) => {
      const { runServe } = await import('./serve.js');
      finish(await runServe(options, io));
    });

  program
    .command('mcp')
    .description(
      'a read-only Model Context Protocol server over stdio, for coding agents (search, read, diff, validate events)',
    )
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('--packages <dir>', 'built group packages (validators, interfaces, examples)', 'packages')
    .option('--no-cache', 'load every release from git; write no cache (.eventry/registry/)')
    .action(async (options) => {
      const { runMcp } = await import('./mcp.js');
      finish(await runMcp(options, io));
    });

  program
    .command('register')
    .description('push every released schema version into an existing Confluent-compatible schema registry')
    .requiredOption(
      '-r, --registry <url>',
      'registry URL; credentials from EVENTRY_REGISTRY_AUTH (user:password), EVENTRY_REGISTRY_TOKEN or .npmrc',
    )
    .option('-n, --dry-run', 'look everything up and print the plan; change nothing')
    .option('--json', 'print the plan and the outcome as JSON')
    .option('--subjects <glob>', 'only subjects matching this glob, e.g. "account.*"')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('--no-cache', 'load every release from git; write no cache (.eventry/registry/)')
    .action(async (options) => {
      const { runRegister } = await import('./register.js');
      finish(await runRegister(options, io));
    });

  program
    .command('docs')
    .description('write the static docs portal: every event, semantic diffs, field history, a playground')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('-o, --out <dir>', 'site folder (replaced as a whole)', '.eventry/site')
    .option('--packages <dir>', 'group packages built by `eventry build`', 'packages')
    .option('--no-cache', 'load every release from git; write no cache (.eventry/registry/)')
    .action(async (options) => {
      const { runDocs } = await import('./docs.js');
      finish(await runDocs(options, io));
    });

  program
    .command('usage')
    .description('consumer declarations from code')
    .command('scan')
    .description(
      "write a team's consumer declaration (consumers/<team>.yaml) from the event fields a TypeScript project reads",
    )
    .argument('<dir>', 'the consumer project (a folder with tsconfig.json that imports the group packages)')
    .requiredOption('--team <team>', 'the consuming team, as teams.yaml names it')
    .option('--catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('--out <file>', 'where the declaration goes (default: <catalogue>/consumers/<team>.yaml)')
    .option('--check', 'verify the declaration instead of writing it')
    .addHelpText(
      'after',
      '\nExit status: 0 written or up to date (warnings may be printed), 1 out of date, a catalogue problem or reads it cannot know (nothing written), 2 usage error.',
    )
    .action(async (dir: string, options) => {
      const { runUsageScan } = await import('./usage.js');
      finish(await runUsageScan(dir, options, io));
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
    .option(
      '--max-bytes <size>',
      'largest line (--ndjson) or file accepted, e.g. 1048576, 512KiB, 64MiB (default 64MiB)',
      byteSize,
    )
    .addHelpText('after', '\nExit status: 0 all valid, 1 some invalid, 2 usage or I/O error.')
    .action(async (key: string | undefined, files: string[], options) => {
      const { runValidate } = await import('./validate.js');
      finish(await runValidate(key, files, options, io));
    });

  program
    .command('fake')
    .description(
      "write test payloads of one event as NDJSON, from its built group package's testing entry point",
    )
    .argument('<key>', 'event key, e.g. account.created-v1')
    .option('-n, --count <n>', 'how many payloads (default 1; with --invalid: all of them)', payloadCount)
    .option('--seed <seed>', 'seed: the same seed gives the same payloads (default 0)')
    .addOption(
      new Option('--variant <variant>', 'minimal (required fields), full (every field) or random')
        .choices(['minimal', 'full', 'random'])
        .default('random'),
    )
    .option('--invalid', 'payloads with one known problem each, with the error item the validator returns')
    .option('-o, --out <dir>', 'packages directory, as built by `eventry build`', 'packages')
    .addHelpText(
      'after',
      '\nEach line is {"event": KEY, "payload": {...}}, as `eventry validate --ndjson` reads it.\nExit status: 0 written, 2 usage error.',
    )
    .action(async (key: string, options) => {
      const { runFake } = await import('./fake.js');
      finish(await runFake(key, options, io));
    });
}

/** Commander parser for `--count`: a usage error (exit 2) on anything but a whole number up to 10 million. */
function payloadCount(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value > 10_000_000)
    throw new InvalidArgumentError('give a whole number from 0 to 10000000.');
  return value;
}

/** Commander parser for a count option: a usage error (exit 2) on anything but a whole number from 0. */
function count(text: string): number {
  if (!/^\d+$/.test(text)) throw new InvalidArgumentError('give a whole number from 0, e.g. 0 or 25.');
  return Number(text);
}

/** Commander parser for a size option: a usage error (exit 2) on anything but a positive size. */
function byteSize(text: string): number {
  const bytes = parseByteSize(text);
  if (bytes === undefined)
    throw new InvalidArgumentError('give a positive size in bytes, e.g. 65536 or 64MiB.');
  return bytes;
}
