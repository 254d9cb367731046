import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { whileReadingOutput } from '../execute/write.js';
import { formatProblem, loadCatalogue } from '../load/index.js';
import { suggest } from '../load/suggest.js';
import { type ConverterProblem, converterFor } from '../migrate/convert.js';
import type { Catalogue } from '../model.js';
import type { ValidationResult } from '../runtime/runtime.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { BufferedOutput } from '../validate/buffered-output.js';
import { GroupPackages, PackageLoadError } from '../validate/group-packages.js';
import { DEFAULT_MAX_BYTES } from '../validate/lines.js';
import { type UpcastLineProblem, upcastNdjson } from '../validate/upcast-stream.js';
import type { Container } from './container.js';
import { usageError } from './usage-error.js';

/** Options of `eventry upcast`. */
export interface UpcastCommandOptions {
  to?: string;
  validate?: boolean;
  catalogue?: string;
  out?: string;
  maxBytes?: number;
}

/**
 * `eventry upcast KEY [--to KEY2] < ndjson`: converts each NDJSON payload of KEY on stdin into one of KEY2
 * (by default the newest version KEY upgrades to) with the catalogue's migrations, one line out per line
 * in, as it reads. A line that gives no payload is reported on stderr (`stdin:LINE: error CODE: ...`)
 * and skipped. Exit 0 all converted, 1 some not, 2 usage error (no such key, no migration path).
 */
export async function runUpcast(
  key: string,
  options: UpcastCommandOptions,
  io: Container,
): Promise<ExitStatus> {
  const usage = (message: string): ExitStatus => usageError(io, 'upcast', message);
  const catalogueDir = options.catalogue ?? 'catalogue';
  if (!statSync(resolve(io.cwd, catalogueDir), { throwIfNoEntry: false })?.isDirectory())
    return usage(`no catalogue folder at ${catalogueDir} (give one with --catalogue <dir>).`);
  const loaded = loadCatalogue(resolve(io.cwd, catalogueDir));
  if (!loaded.ok) {
    io.stderr.write(`eventry upcast: the catalogue in ${catalogueDir} does not load:\n`);
    for (const problem of loaded.problems) io.stderr.write(`${formatProblem(problem, catalogueDir)}\n`);
    return EXIT.problems;
  }
  const found = converterFor(loaded.catalogue, key, options.to);
  if (!found.ok) return usage(converterMessage(loaded.catalogue, found.problem));
  let validate: ((payload: unknown) => ValidationResult) | undefined;
  if (options.validate) {
    const validator = await inputValidator(key, options.out ?? 'packages', io);
    if (typeof validator === 'number') return validator;
    validate = validator;
  }
  const output = new BufferedOutput(io.stdout);
  try {
    const result = await upcastNdjson(io.stdin, {
      convert: found.converter.convert,
      ...(validate ? { validate } : {}),
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      output,
      problem: (problem) => io.stderr.write(problemText(problem)),
    });
    await output.flush();
    if (result.kind === 'unreadable') {
      io.stderr.write(`eventry upcast: cannot read stdin: ${result.reason}\n`);
      return EXIT.usage;
    }
    if (result.failed === 0) return EXIT.ok;
    io.stderr.write(
      `eventry upcast: ${result.failed} of ${result.count} line(s) not converted (${found.converter.through.join(' -> ')}).\n`,
    );
    return EXIT.problems;
  } finally {
    await output.flush();
  }
}

/** Why KEY (or `--to`) gives no conversion, as a usage error says it. */
function converterMessage(model: Catalogue, problem: ConverterProblem): string {
  if (problem.kind === 'unknown-event') {
    const guess = suggest(problem.key, Object.keys(model.events));
    return `error unknown-event: no event \`${problem.key}\` in the catalogue.${guess ? ` Did you mean \`${guess}\`?` : ''}`;
  }
  if (problem.to === undefined)
    return `error no-migration-path: no version upgrades from \`${problem.from}\` (the catalogue declares no \`upgrade:\` from it); give --to KEY2 to convert to another version.`;
  return `error no-migration-path: no migration leads from \`${problem.from}\` to \`${problem.to}\` (no chain of \`upgrade:\` / \`downgrade:\` steps between them).`;
}

/** `--validate`: KEY's validator from the built group packages, or the exit status after saying why not. */
async function inputValidator(
  key: string,
  out: string,
  io: Container,
): Promise<((payload: unknown) => ValidationResult) | ExitStatus> {
  const outDir = resolve(io.cwd, out);
  const packages = await whileReadingOutput(
    outDir,
    () => new GroupPackages(outDir, (read) => whileReadingOutput(outDir, read)),
    (pid) => io.stderr.write(`eventry upcast: waiting for a build (process ${pid}) writing ${outDir} …\n`),
  );
  try {
    const validator = await packages.validatorFor(key);
    if (validator) return (payload) => validator(key, payload, { mode: 'strict' });
  } catch (error) {
    if (!(error instanceof PackageLoadError)) throw error;
    io.stderr.write(`eventry upcast: ${error.message}\n`);
    return EXIT.usage;
  }
  return usageError(
    io,
    'upcast',
    `--validate: no group package with \`${key}\` in \`${out}\`: run \`npm run build\` first (or pass --out).`,
  );
}

/** `stdin:LINE: error CODE: detail`, then each validation error at its dot path. */
function problemText(problem: UpcastLineProblem): string {
  const items = problem.errors.map(
    (item) => `    at ${item.attr === '' ? '(payload)' : item.attr}: ${item.detail} [${item.code}]\n`,
  );
  return `stdin:${problem.line}: error ${problem.code}: ${problem.detail}\n${items.join('')}`;
}
