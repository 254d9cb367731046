import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLoader } from '../execute/fast/loader.js';
import { CONSUMERS_FOLDER, formatProblem, loadCatalogue } from '../load/index.js';
import { suggest } from '../load/suggest.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import { readIfExists, writeAtomically } from '../shared/fs.js';
import { declarationText, isGeneratedDeclaration } from '../usage/declaration.js';
import { type ProjectUsage, type ScanFinding, scanProject, UsageError } from '../usage/scan.js';
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
    accelerator: openLoader(),
    ownership: 'defer',
  });
  if (!loaded.ok) {
    for (const problem of loaded.problems)
      io.stdout.write(`${formatProblem(problem, relative(cwd, catalogueDir))}\n`);
    return EXIT.problems;
  }
  const unknown = unknownTeam(options.team, Object.keys(loaded.catalogue.ownership?.teams ?? {}));
  if (unknown) {
    io.stderr.write(`eventry usage scan: error usage-unknown-team: ${unknown}\n`);
    return EXIT.usage;
  }
  const project = resolve(cwd, dir);
  let usage: ProjectUsage;
  try {
    usage = scanProject(project, loaded.catalogue);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`eventry usage scan: ${error.message}\n`);
    return EXIT.usage;
  }
  for (const finding of usage.findings) io.stdout.write(`${formatFinding(finding, cwd)}\n`);
  const errors = usage.findings.filter((finding) => finding.severity === 'error').length;
  if (errors > 0) {
    io.stderr.write(
      `eventry usage scan: ${errors} error(s): the reads are not all known; nothing was written.\n`,
    );
    return EXIT.problems;
  }
  const out = resolve(cwd, options.out ?? join(catalogueDir, CONSUMERS_FOLDER, `${options.team}.yaml`));
  const schema = relative(dirname(out), SCHEMA).split(sep).join('/');
  return writeDeclaration(out, declarationText(options.team, usage, schema), usage, options, io);
}

/** Why `team` cannot be declared (not a team of teams.yaml, with a did-you-mean), if it cannot. */
function unknownTeam(team: string, teams: readonly string[]): string | undefined {
  if (teams.includes(team)) return undefined;
  const guess = suggest(team, teams);
  const hint = guess
    ? `Did you mean \`${guess}\`?`
    : teams.length > 0
      ? 'Add it to teams.yaml first.'
      : 'The catalogue has no teams.yaml: define the team there first.';
  return `--team \`${team}\` is not a team of teams.yaml. ${hint}`;
}

/** Writes (atomically) or with `--check` compares the declaration; only a file the scan wrote is replaced. */
function writeDeclaration(
  out: string,
  text: string,
  usage: ProjectUsage,
  options: UsageScanOptions,
  io: Container,
): ExitStatus {
  const shown = relative(io.cwd, out);
  const kind = kindOf(out);
  if (kind !== 'file' && kind !== 'missing') {
    io.stderr.write(
      `eventry usage scan: error usage-not-generated: ${shown} is a ${kind}, not a declaration file.\n`,
    );
    return EXIT.problems;
  }
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
  if (existing !== undefined && !isGeneratedDeclaration(existing)) {
    io.stderr.write(
      `eventry usage scan: error usage-not-generated: ${shown} was not written by \`eventry usage scan\` (its first line is not the note it writes); move it away or pass --out.\n`,
    );
    return EXIT.problems;
  }
  if (existing !== text) writeAtomically(out, text);
  const events = usage.reads.size;
  const warnings = usage.findings.length;
  io.stdout.write(
    `eventry usage scan: ${usage.files} file(s), ${events} event version(s) read${warnings > 0 ? `, ${warnings} read(s) declared wider` : ''}: ${existing === text ? 'unchanged' : 'wrote'} ${shown}.\n`,
  );
  return EXIT.ok;
}

/** What is at `path`: a regular file, nothing, or something else a declaration cannot be written over. */
function kindOf(path: string): 'file' | 'missing' | 'folder' | 'special file' {
  try {
    const stat = statSync(path);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : 'special file';
  } catch {
    return 'missing';
  }
}

/** `file:line:column: warning usage-unresolved: message`, the file relative to the working folder. */
function formatFinding(finding: ScanFinding, cwd: string): string {
  const file = relative(cwd, finding.file) || finding.file;
  return `${file}:${finding.line}:${finding.column}: ${finding.severity} ${finding.code}: ${finding.message}`;
}
