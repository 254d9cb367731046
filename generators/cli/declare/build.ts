import type { Command } from '../commander.js';
import type { Container } from '../container.js';
import type { Finish } from './finish.js';

// Commands that write the outputs: the build, the packages' versions and publication, the portal.

/** `eventry build`. */
export function declareBuild(program: Command, io: Container, finish: Finish): void {
  program
    .command('build')
    .description('compile the catalogue into schemas, OpenAPI, AsyncAPI and the group packages')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('-o, --out <dir>', 'packages directory', 'packages')
    .option('-f, --force', 'rebuild even when nothing changed')
    .option('--no-cache', 'do not reuse what an earlier build kept (.eventry/cache/)')
    .action(async (options) => {
      const { runBuild } = await import('../build.js');
      finish(await runBuild(options, io));
    });
}

/** `eventry publish`. */
export function declarePublish(program: Command, io: Container, finish: Finish): void {
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
      const { runPublish } = await import('../publish.js');
      finish(await runPublish(options, io));
    });
}

/** `eventry version`. */
export function declareVersion(program: Command, io: Container, finish: Finish): void {
  program
    .command('version')
    .description('bump each group package from the diff since its last release and prepend its CHANGELOG.md')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('-o, --out <dir>', 'packages directory', 'packages')
    .option('-n, --dry-run', 'print the new versions; write nothing')
    .action(async (options) => {
      const { runVersion } = await import('../version.js');
      finish(await runVersion(options, io));
    });
}

/** `eventry docs`. */
export function declareDocs(program: Command, io: Container, finish: Finish): void {
  program
    .command('docs')
    .description('write the static docs portal: every event, semantic diffs, field history, a playground')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('-o, --out <dir>', 'site folder (replaced as a whole)', '.eventry/site')
    .option('--packages <dir>', 'group packages built by `eventry build`', 'packages')
    .option('--no-cache', 'load every release from git; write no cache (.eventry/registry/)')
    .action(async (options) => {
      const { runDocs } = await import('../docs.js');
      finish(await runDocs(options, io));
    });
}
