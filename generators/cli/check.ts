import { posix, relative, resolve, sep } from 'node:path';
import { readOnlyParseCache } from '../build/emit-cache.js';
import { type AllowEntry, readAllowList } from '../diff/allow-list.js';
import { evaluateGate, type GateOutcome } from '../diff/gate.js';
import { checkDeclarationsAcross, consumerImpact, unreadPassing } from '../diff/impact.js';
import { formatImpactText } from '../diff/impact-report.js';
import { compareCatalogues } from '../diff/index.js';
import { escapeData, escapeProperty, formatImpactGithub } from '../diff/report/github.js';
import { breaksSentence } from '../diff/report/report.js';
import { ALLOW_LIST_FILE, formatProblem } from '../load/index.js';
import type { SourceLocation } from '../model.js';
import { findGateBase, lastRelease } from '../release/last-release.js';
import { directorySource } from '../sources/folder.js';
import { readFiles, repoRoot, resolveCommit } from '../sources/git.js';
import { type ResolvedSource, resolveSource, type SourceResult } from '../sources/index.js';
import type { SourceOptions } from '../sources/source.js';
import { EXIT_USAGE } from './exit-codes.js';

/** Options of `eventry check`. */
export interface CheckCommandOptions {
  /**
   * Git ref (or catalogue directory) of the last accepted state: `main`, a release tag. Without it:
   * `EVENTRY_BASE`, else the last release before HEAD (see `findGateBase`).
   */
  base?: string;
  catalogue?: string;
  format?: 'text' | 'github';
  cwd?: string;
}

/** The command line `.ci/run` runs: the gate against `EVENTRY_BASE` or the last release (passes on a first commit). */
export const CI_CHECK_COMMAND = 'node dist/scripts/eventry.js check';

/** A line of the gate's output. */
interface Diagnostic {
  level: 'error' | 'warning';
  code: string;
  message: string;
  hint?: string;
  location?: SourceLocation;
}

/**
 * `eventry check [--base REF]`: the version policy gate. Exit 1 when an existing event version changed
 * in a breaking way that the allow-list does not name, when an allow-list entry matches nothing or
 * outlived a whole release, or when the catalogue does not load; 0 otherwise, also when there is no base
 * to compare with (a first commit); 2 on a usage error.
 */
export async function runCheck(options: CheckCommandOptions): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  const catalogueDir = options.catalogue ?? 'catalogue';
  // The catalogue and its base share most files: each file both hold alike is parsed once, and most
  // were parsed by the last `eventry build` already (its parse cache, in the project's .eventry/cache/).
  // Only read, and only when there is one: a CI run starts without it, and storing would only cost it.
  const cache = readOnlyParseCache([resolve(cwd, catalogueDir)]);
  const sourceOptions: SourceOptions = {
    cwd,
    catalogue: catalogueDir,
    load: { memo: new Map(), ...(cache ? { cache } : {}), ownership: 'defer' },
  };
  if (!directorySource.claims(catalogueDir, sourceOptions)) {
    process.stderr.write(`eventry check: no catalogue directory \`${catalogueDir}\`.\n`);
    return EXIT_USAGE;
  }
  // Usage errors first: a wrong --base is reported as such even when the catalogue has problems too.
  const given = options.base === undefined ? undefined : resolveSource(options.base, sourceOptions);
  if (given && !given.ok && given.reason === 'usage') {
    process.stderr.write(`eventry check: --base ${given.message}\n`);
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

  let baseSpec = options.base;
  let base: SourceResult | undefined = given;
  if (!base) {
    const found = findGateBase(cwd, catalogueDir, after.catalogue.config.scope);
    if (!found) {
      process.stdout.write('eventry check: no commit before HEAD. Nothing to compare with: passed.\n');
      return 0;
    }
    process.stdout.write(`eventry check: base ${found.ref.slice(0, 12)} (${found.why}).\n`);
    baseSpec = found.ref;
    base = resolveSource(found.ref, sourceOptions);
    if (!base.ok && base.reason === 'usage') {
      process.stderr.write(`eventry check: base from ${found.why}: ${base.message}\n`);
      return EXIT_USAGE;
    }
  }
  if (!base.ok) {
    if (base.reason === 'absent') {
      process.stdout.write(`eventry check: ${base.message} Nothing to compare with: passed.\n`);
      return 0;
    }
    // The base is broken, not this change: the gate cannot judge, and says so without failing.
    const count = base.reason === 'problems' ? base.problems.length : 0;
    process.stdout.write(
      `eventry check: the base catalogue at ${baseSpec} does not load (${count} problem(s)); nothing to compare with: passed.\n`,
    );
    return 0;
  }

  const earlier = earlierEntries(cwd, catalogueDir, after.catalogue.config.scope, baseSpec!);
  const outcome = checkVersionPolicy(base.source, after, allowList.entries, earlier);
  const diagnostics = gateDiagnostics(outcome, base.source.label);
  const print = options.format === 'github' ? githubLine : textLine;
  for (const diagnostic of diagnostics) process.stdout.write(`${print(diagnostic, after.root)}\n`);
  const consumers = checkConsumers(base.source, after, outcome, options.format ?? 'text');
  if (consumers === undefined) return 1;
  const stale = outcome.stale.length + outcome.expired.length;
  const errors = outcome.blocked.length - consumers.unreadPassing + stale + consumers.broken;
  process.stdout.write(
    `eventry check: ${outcome.blocked.length} breaking change(s) to existing event versions blocked, ` +
      `${outcome.allowed.length} allowed by ${ALLOW_LIST_FILE}, ${stale} stale allow-list entr${stale === 1 ? 'y' : 'ies'} ` +
      `(base ${base.source.label}): ${errors > 0 ? 'failed' : 'passed'}.\n`,
  );
  return errors > 0 ? 1 : 0;
}

/**
 * Prints whom the change breaks: the number of broken consumers and of blocked changes no consumer
 * reads that the config lets pass, or undefined when a declaration is wrong.
 */
function checkConsumers(
  base: ResolvedSource,
  current: ResolvedSource,
  outcome: GateOutcome,
  format: 'text' | 'github',
): { broken: number; unreadPassing: number } | undefined {
  const problems = checkDeclarationsAcross(base.catalogue, current.catalogue);
  for (const problem of problems) process.stdout.write(`${formatProblem(problem, current.root)}\n`);
  if (problems.length > 0) return undefined;
  const impact = consumerImpact(base.catalogue, current.catalogue);
  process.stdout.write(
    format === 'github' ? formatImpactGithub(impact, current.root) : formatImpactText(impact),
  );
  const broken = impact.impacts.filter((entry) => entry.status === 'broken');
  if (broken.length > 0)
    process.stdout.write(
      `eventry check: ${broken.length} consumer(s) broken: ${broken.map((entry) => `${entry.team} (${entry.event})`).join(', ')}.\n`,
    );
  const passing = unreadPassing(
    outcome.blocked.map((entry) => entry.finding),
    impact,
    current.catalogue,
  );
  if (passing.length > 0)
    process.stdout.write(
      `eventry check: ${passing.length} breaking change(s) no declared consumer reads pass (consumers.unread_breaking: warn).\n`,
    );
  return { broken: broken.length, unreadPassing: passing.length };
}

/**
 * Runs the gate on two resolved catalogues. The base's allow-list holds the entries a release already
 * carried; `earlier` those the release before the base carried too.
 */
export function checkVersionPolicy(
  base: ResolvedSource,
  current: ResolvedSource,
  entries: readonly AllowEntry[],
  earlier: readonly AllowEntry[] = [],
): GateOutcome {
  const findings = compareCatalogues(base.catalogue, current.catalogue);
  const carried = { base: readAllowList(base.allowList).entries, earlier };
  return evaluateGate(findings, entries, carried, base.catalogue, current.catalogue);
}

/** The allow-list of the last release before the base (none when the base is a folder or the first release). */
function earlierEntries(cwd: string, catalogueDir: string, scope: string, baseSpec: string): AllowEntry[] {
  const top = repoRoot(cwd);
  const baseCommit = top ? resolveCommit(cwd, baseSpec) : undefined;
  const parent = baseCommit ? resolveCommit(cwd, `${baseCommit}^`) : undefined;
  if (!top || !parent) return [];
  const release = lastRelease(cwd, top, catalogueDir, scope, parent);
  if (!release) return [];
  const path = posix.join(toPosix(relative(top, resolve(cwd, catalogueDir))), ALLOW_LIST_FILE);
  const text = readFiles(cwd, release.commit, [path]).get(path);
  return text === undefined ? [] : readAllowList({ path: ALLOW_LIST_FILE, text }).entries;
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
      message: `The allow-list entry for \`${entry.event}\` (\`${entry.rule}\`) was carried by the release ${baseLabel}: its change is released and it allows nothing now.`,
      hint: 'Delete it before the next release (after that it is an error).',
      location: entry.location,
    });
  }
  for (const entry of outcome.expired) {
    diagnostics.push({
      level: 'error',
      code: 'expired-allow-entry',
      message: `The allow-list entry for \`${entry.event}\` (\`${entry.rule}\`) was carried by two releases (the last one ${baseLabel}): it allows nothing.`,
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

function toPosix(path: string): string {
  return path.split(sep).join(posix.sep);
}
