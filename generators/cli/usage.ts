import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FastLoad } from '../execute/fast/load/index.js';
import { CONSUMERS_FOLDER, formatProblem, loadCatalogue } from '../load/index.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { readIfExists, writeAtomically } from '../shared/fs.js';
import { declarationText, GENERATED_DECLARATION_NOTE } from '../usage/declaration.js';
import { scanProject, UsageError } from '../usage/scan.js';
import type { Container } from './container.js';
import { usageError } from './usage-error.js';

/** Options of `eventry usage scan`. */
export interface UsageScanOptions {
  team: string;
  catalogue?: string;
  /** Where the declaration goes; default `<catalogue>/consumers/<team>.yaml`. */
  out?: string;
  /** Verify the file instead of writing it: exit 1 when it is not what the code reads. */
  check?: boolean;
}

// The schema in the toolkit's source tree when there is one (a checkout), else the compiled copy.
const SCHEMA = [
  fileURLToPath(new URL('../../../generators/schema/source/consumers.schema.json', import.meta.url)),
  fileURLToPath(new URL('../schema/source/consumers.schema.json', import.meta.url)),
].find((path) => existsSync(path))!;

/** `eventry usage scan DIR --team T`: writes (or with `--check` verifies) a team's consumer declaration. */
export async function runUsageScan(
  dir: string,
  options: UsageScanOptions,
  io: Container,
): Promise<ExitStatus> {
  const { cwd } = io;
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(options.team)) {
    return usageError(io, 'usage scan', `--team \`${options.team}\` is not a kebab-case team id.`);
  }
  const catalogueDir = resolve(cwd, options.catalogue ?? 'catalogue');
  const loaded = loadCatalogue(catalogueDir, undefined, {
    accelerator: new FastLoad(),
    ownership: 'defer',
  });
  if (!loaded.ok) {
    for (const problem of loaded.problems)
      io.stdout.write(`${formatProblem(problem, relative(cwd, catalogueDir))}\n`);
    return EXIT.problems;
  }
  const project = resolve(cwd, dir);
  let usage: ReturnType<typeof scanProject>;
  try {
    usage = scanProject(project, loaded.catalogue);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`eventry usage scan: ${error.message}\n`);
    return EXIT.usage;
  }
  const out = resolve(cwd, options.out ?? join(catalogueDir, CONSUMERS_FOLDER, `${options.team}.yaml`));
  const schema = relative(dirname(out), SCHEMA).split(sep).join('/');
  const text = declarationText(options.team, usage, schema);
  const shown = relative(cwd, out);
  const existing = readIfExists(out);
  if (options.check) {
    if (existing === text) {
      io.stdout.write(`eventry usage scan: ${shown} is what the code reads.\n`);
      return EXIT.ok;
    }
    io.stdout.write(
      `eventry usage scan: ${shown} ${existing === undefined ? 'does not exist' : 'is not what the code reads'}; run \`eventry usage scan\` without --check and commit it.\n`,
    );
    return EXIT.problems;
  }
  // A hand-written declaration is the team's: never overwritten.
  if (existing !== undefined && !existing.includes(GENERATED_DECLARATION_NOTE)) {
    io.stderr.write(
      `eventry usage scan: ${shown} was not written by \`eventry usage scan\`; move it away or pass --out.\n`,
    );
    return EXIT.problems;
  }
  if (existing !== text) writeAtomically(out, text);
  const events = usage.reads.size;
  io.stdout.write(
    `eventry usage scan: ${usage.files} file(s), ${events} event version(s) read: ${existing === text ? 'unchanged' : 'wrote'} ${shown}.\n`,
  );
  return EXIT.ok;
}
