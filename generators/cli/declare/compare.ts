import { COMPATIBILITY_LEVELS } from '../../model.js';
import { type Command, Option } from '../commander.js';
import type { Container } from '../container.js';
import type { Finish } from './finish.js';
import { count } from './parsers.js';

// Commands that compare and judge the catalogue: diff, the version gate, lint.

/** `eventry diff`. */
export function declareDiff(program: Command, io: Container, finish: Finish): void {
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
      const { runDiff } = await import('../diff.js');
      finish(await runDiff(old, now, options, io));
    });
}

/** `eventry check`. */
export function declareCheck(program: Command, io: Container, finish: Finish): void {
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
    .addOption(
      new Option('--format <format>', 'output format')
        .choices(['text', 'github', 'json', 'markdown'])
        .default('text'),
    )
    .action(async (options) => {
      const { runCheck } = await import('../check.js');
      finish(await runCheck(options, io));
    });
}

/** `eventry lint`. */
export function declareLint(program: Command, io: Container, finish: Finish): void {
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
      const { runLint } = await import('../lint.js');
      finish(await runLint(options, io));
    });
}
