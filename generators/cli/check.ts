import { type AllowEntry, readAllowList } from '../diff/allow-list.js';
import { evaluateGate, type GateOutcome } from '../diff/gate.js';
import { compareCatalogues } from '../diff/index.js';
import { escapeData, escapeProperty } from '../diff/report/github.js';
import { breaksSentence } from '../diff/report/report.js';
import { directorySource, type ResolvedSource, resolveSource } from '../diff/sources.js';
import { ALLOW_LIST_FILE, formatProblem } from '../load/index.js';
import type { SourceLocation } from '../model.js';
import { EXIT_USAGE } from './main.js';

/** Options of `eventry check`. */
export interface CheckCommandOptions {
  /** Git ref (or catalogue directory) of the last accepted state: `main`, `HEAD~1`. */
  base: string;
  catalogue?: string;
  format?: 'text' | 'github';
  cwd?: string;
}

/** The command line `.ci/run` runs: the gate against the previous commit (passes on a first commit). */
export const CI_CHECK_COMMAND = 'node dist/scripts/eventry.js check --base HEAD~1';

/** A line of the gate's output. */
interface Diagnostic {
  level: 'error' | 'warning';
  code: string;
  message: string;
  hint?: string;
  location?: SourceLocation;
}

/**
 * `eventry check --base REF`: the version policy gate. Exit 1 when an existing event version changed in
 * a breaking way that the allow-list does not name, when an allow-list entry matches nothing, or when
 * the catalogue does not load; 0 otherwise, also when the base has no catalogue (a first commit); 2 on
 * a usage error.
 */
export async function runCheck(options: CheckCommandOptions): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  const catalogueDir = options.catalogue ?? 'catalogue';
  const sourceOptions = { cwd, catalogue: catalogueDir };
  if (!directorySource.claims(catalogueDir, sourceOptions)) {
    process.stderr.write(`eventry check: no catalogue directory \`${catalogueDir}\`.\n`);
    return EXIT_USAGE;
  }
  // Usage errors first: a wrong --base is reported as such even when the catalogue has problems too.
  const base = resolveSource(options.base, sourceOptions);
  if (!base.ok && base.reason === 'usage') {
    process.stderr.write(`eventry check: --base ${base.message}\n`);
    return EXIT_USAGE;
  }
  const current = directorySource.resolve(catalogueDir, sourceOptions);
  if (!current.ok) {
    if (current.reason === 'problems') {
      for (const problem of current.problems)
        process.stdout.write(`${formatProblem(problem, current.root)}\n`);
      process.stdout.write(`eventry check: the catalogue has ${current.problems.length} problem(s).\n`);
      return 1;
    }
    process.stderr.write(`eventry check: ${current.message}\n`);
    return EXIT_USAGE;
  }
  const after = current.source;
  const allowList = readAllowList(after.allowList);
  if (allowList.problems.length > 0) {
    for (const problem of allowList.problems) process.stdout.write(`${formatProblem(problem, after.root)}\n`);
    return 1;
  }

  if (!base.ok) {
    if (base.reason === 'absent') {
      process.stdout.write(`eventry check: ${base.message} Nothing to compare with: passed.\n`);
      return 0;
    }
    // The base is broken, not this change: the gate cannot judge, and says so without failing.
    const count = base.reason === 'problems' ? base.problems.length : 0;
    process.stdout.write(
      `eventry check: the base catalogue at ${options.base} does not load (${count} problem(s)); nothing to compare with: passed.\n`,
    );
    return 0;
  }

  const outcome = checkVersionPolicy(base.source, after, allowList.entries);
  const diagnostics = gateDiagnostics(outcome, base.source.label);
  const print = options.format === 'github' ? githubLine : textLine;
  for (const diagnostic of diagnostics) process.stdout.write(`${print(diagnostic, after.root)}\n`);
  const errors = outcome.blocked.length + outcome.stale.length;
  process.stdout.write(
    `eventry check: ${outcome.blocked.length} breaking change(s) to existing event versions blocked, ` +
      `${outcome.allowed.length} allowed by ${ALLOW_LIST_FILE}, ${outcome.stale.length} stale allow-list entr${outcome.stale.length === 1 ? 'y' : 'ies'} ` +
      `(base ${base.source.label}): ${errors > 0 ? 'failed' : 'passed'}.\n`,
  );
  return errors > 0 ? 1 : 0;
}

/** Runs the gate on two resolved catalogues (the base's allow-list tells consumed entries from stale ones). */
export function checkVersionPolicy(
  base: ResolvedSource,
  current: ResolvedSource,
  entries: readonly AllowEntry[],
): GateOutcome {
  const findings = compareCatalogues(base.catalogue, current.catalogue);
  const baseEntries = readAllowList(base.allowList).entries;
  return evaluateGate(findings, entries, baseEntries, base.catalogue, current.catalogue);
}

function gateDiagnostics(outcome: GateOutcome, baseLabel: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const { finding, fix } of outcome.blocked) {
    const where = finding.attr === null ? finding.event : `${finding.event} ${finding.attr}`;
    diagnostics.push({
      level: 'error',
      code: finding.rule,
      message: `${where}: ${finding.detail}${breaksSentence(finding.breaks)}`,
      hint: fix,
      ...(finding.location ? { location: finding.location } : {}),
    });
  }
  for (const entry of outcome.stale) {
    diagnostics.push({
      level: 'error',
      code: 'stale-allow-entry',
      message: `The allow-list entry for \`${entry.event}\` (\`${entry.rule}\`${entry.attr ? `, \`${entry.attr}\`` : ''}) matches no breaking change against ${baseLabel}.`,
      hint: 'Delete the entry (the change it allowed is gone), or correct its event, rule or attr.',
      location: entry.location,
    });
  }
  for (const entry of outcome.consumed) {
    diagnostics.push({
      level: 'warning',
      code: 'consumed-allow-entry',
      message: `The allow-list entry for \`${entry.event}\` (\`${entry.rule}\`) was used by an earlier change and allows nothing now.`,
      hint: 'Delete it.',
      location: entry.location,
    });
  }
  for (const { finding, entry } of outcome.allowed) {
    diagnostics.push({
      level: 'warning',
      code: finding.rule,
      message: `${finding.event}${finding.attr === null ? '' : ` ${finding.attr}`}: ${finding.detail} Allowed: ${entry.reason}`,
      ...(finding.location ? { location: finding.location } : {}),
    });
  }
  return diagnostics;
}

/** `file:line:column: error code: message`, as catalogue problems print. */
function textLine(diagnostic: Diagnostic, root: string): string {
  const where = diagnostic.location
    ? `${prefixed(root, diagnostic.location.file)}:${diagnostic.location.line}:${diagnostic.location.column}: `
    : '';
  const hint = diagnostic.hint ? `\n    fix: ${diagnostic.hint}` : '';
  return `${where}${diagnostic.level} ${diagnostic.code}: ${diagnostic.message}${hint}`;
}

function githubLine(diagnostic: Diagnostic, root: string): string {
  const properties = diagnostic.location
    ? [
        `file=${escapeProperty(prefixed(root, diagnostic.location.file))}`,
        `line=${diagnostic.location.line}`,
        `col=${diagnostic.location.column}`,
      ]
    : [];
  properties.push(`title=${escapeProperty(diagnostic.code)}`);
  const text = diagnostic.hint ? `${diagnostic.message}\n${diagnostic.hint}` : diagnostic.message;
  return `::${diagnostic.level} ${properties.join(',')}::${escapeData(text)}`;
}

function prefixed(root: string, file: string): string {
  return root && root !== '.' ? `${root.replace(/\/$/, '')}/${file}` : file;
}
