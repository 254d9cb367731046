import type { Command } from '../commander.js';
import type { Container } from '../container.js';
import type { Finish } from './finish.js';

// Commands that serve the catalogue to other programs: the schema registry, MCP, a push to a registry.

/** `eventry serve`. */
export function declareServe(program: Command, io: Container, finish: Finish): void {
  program
    .command('serve')
    .description(
      "serve the catalogue's release history as a read-only Confluent Schema Registry (JSON Schema)",
    )
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', '8081')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('--access-log', 'print one JSON line per request on stdout (query secrets masked)')
    .option('--docs <dir>', 'docs portal folder served at /docs/ (written by eventry docs)', '.eventry/site')
    .option('--no-cache', 'load every release from git; write no cache (.eventry/registry/)')
    .option('--packages <dir>', 'built group packages the MCP endpoint (/mcp) validates with', 'packages')
    .option('--poll <seconds>', 'how often to look for a new release or catalogue edit (0: never)', '2')
    .option('--tls-cert <file>', 'serve HTTPS with this PEM certificate (chain); needs --tls-key')
    .option('--tls-key <file>', 'the PEM private key of --tls-cert')
    .option(
      '--drain-delay <seconds>',
      'after SIGTERM, answer /readyz 503 this long before listening stops',
      '0',
    )
    .option(
      '--drain-timeout <seconds>',
      'after listening stops, how long requests in flight get to finish',
      '10',
    )
    .action(async (options) => {
      const { runServe } = await import('../serve.js');
      finish(await runServe(options, io));
    });
}

/** `eventry register`. */
export function declareRegister(program: Command, io: Container, finish: Finish): void {
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
      const { runRegister } = await import('../register.js');
      finish(await runRegister(options, io));
    });
}

/** `eventry mcp`. */
export function declareMcp(program: Command, io: Container, finish: Finish): void {
  program
    .command('mcp')
    .description(
      'a read-only Model Context Protocol server over stdio, for coding agents (search, read, diff, validate events)',
    )
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('--packages <dir>', 'built group packages (validators, interfaces, examples)', 'packages')
    .option('--no-cache', 'load every release from git; write no cache (.eventry/registry/)')
    .action(async (options) => {
      const { runMcp } = await import('../mcp.js');
      finish(await runMcp(options, io));
    });
}

/** `eventry registry export`. */
export function declareRegistry(program: Command, io: Container, finish: Finish): void {
  program
    .command('registry')
    .description('the schema registry as static files')
    .command('export')
    .description(
      'write the read routes `eventry serve` answers as a static release any object store, CDN or file server serves',
    )
    .requiredOption(
      '-o, --out <dir>',
      'export folder: new, empty, or an earlier export (releases are added, never removed)',
    )
    .option('-c, --catalogue <dir>', 'catalogue directory', 'catalogue')
    .option('--no-cache', 'load every release from git; write no cache (.eventry/registry/)')
    .addHelpText(
      'after',
      '\nExit status: 0 exported (or already there), 1 the catalogue does not load or a write failed (the current release is unchanged), 2 usage error.',
    )
    .action(async (options) => {
      const { runRegistryExport } = await import('../registry.js');
      finish(await runRegistryExport(options, io));
    });
}
