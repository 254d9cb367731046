import { type Command, Option } from '../commander.js';
import type { Container } from '../container.js';
import type { Finish } from './finish.js';
import { byteSize, payloadCount } from './parsers.js';

// Commands over payloads and consumer code: validate, fake, upcast, usage scan.

/** `eventry usage`. */
export function declareUsage(program: Command, io: Container, finish: Finish): void {
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
      const { runUsageScan } = await import('../usage.js');
      finish(await runUsageScan(dir, options, io));
    });
}

/** `eventry validate`. */
export function declareValidate(program: Command, io: Container, finish: Finish): void {
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
      const { runValidate } = await import('../validate.js');
      finish(await runValidate(key, files, options, io));
    });
}

/** `eventry fake`. */
export function declareFake(program: Command, io: Container, finish: Finish): void {
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
      '\nEach line is {"event": KEY, "payload": {...}}, as `eventry validate --ndjson` reads it; lines are written as they\nare drawn, so any count runs in flat memory.\nExit status: 0 written, 2 usage error, 141 (quietly) when the output closes early (`| head -1`).',
    )
    .action(async (key: string, options) => {
      const { runFake } = await import('../fake.js');
      finish(await runFake(key, options, io));
    });
}

/** `eventry upcast`. */
export function declareUpcast(program: Command, io: Container, finish: Finish): void {
  program
    .command('upcast')
    .description(
      "convert NDJSON payloads of one event version on stdin into another version with the catalogue's migrations",
    )
    .argument('<key>', 'the event key of the payloads, e.g. account.removed-v1')
    .option('--to <key>', 'the event key to convert to (default: the newest version KEY upgrades to)')
    .option(
      '--validate',
      'check each payload as one of KEY (strict) before converting it, with the built packages',
    )
    .option('--catalogue <dir>', 'catalogue directory', 'catalogue')
    .option(
      '-o, --out <dir>',
      'packages directory, as built by `eventry build` (with --validate)',
      'packages',
    )
    .option(
      '--max-bytes <size>',
      'largest line accepted, e.g. 1048576, 512KiB, 64MiB (default 64MiB)',
      byteSize,
    )
    .addHelpText(
      'after',
      '\nOne payload per line in, one converted payload per line out, as the lines arrive. A line that is not JSON,\nnot valid for KEY (--validate) or not convertible is reported on stderr as `stdin:LINE: error CODE: ...`\nand gives no output line.\nExit status: 0 all converted, 1 some lines not converted, 2 usage error (unknown key, no migration path).',
    )
    .action(async (key: string, options) => {
      const { runUpcast } = await import('../upcast.js');
      finish(await runUpcast(key, options, io));
    });
}
