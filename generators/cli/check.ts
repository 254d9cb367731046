import { posix, relative, resolve, sep } from 'node:path';
import { type AllowEntry, readAllowList } from '../diff/allow-list.js';
import { evaluateGate, type GateOutcome } from '../diff/gate.js';
import { checkDeclarationsAcross, consumerImpact, unreadPassing } from '../diff/impact.js';
import { formatImpactText } from '../diff/impact-report.js';
import { compareCatalogues } from '../diff/index.js';
import { escapeData, escapeProperty, formatImpactGithub } from '../diff/report/github.js';
import { breaksSentence } from '../diff/report/report.js';
import { readOnlyParseCache } from '../execute/project-cache.js';
import { lintForGate } from '../lint/gate.js';
import { ALLOW_LIST_FILE, formatProblem } from '../load/index.js';
import type { SourceLocation } from '../model.js';
import { describeBase, missingBaseHint, resolveGateBase } from '../release/base.js';
import { lastRelease } from '../release/last-release.js';
import { EXIT_USAGE } from '../shared/exit-codes.js';
import { directorySource } from '../sources/folder.js';
import { readFiles, repoRoot, resolveCommit } from '../sources/git.js';
import { type ResolvedSource, resolveSource } from '../sources/index.js';
import type { SourceOptions } from '../sources/source.js';

/** Options of `eventry check`. */
export interface CheckCommandOptions {
  /**
   * Git ref (or catalogue directory) of the last accepted state: `main`, a release tag. Without it:
   * `EVENTRY_BASE`, else the last release (see `resolveGateBase`).
   */
  base?: string;
  catalogue?: string;
  format?: 'text' | 'github';
  cwd?: string;
}

/** The command line `.ci/run` runs: the gate against `EVENTRY_BASE` or the last release (see `resolveGateBase`). */
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
 * outlived a whole release, or when the catalogue does not load; 0 otherwise; 2 on a usage error, and
 * when the base cannot be seen (a shallow clone, a ref that names no commit, a base that does not load).
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
  const fromEnv = process.env.EVENTRY_BASE?.trim();
  const explicit =
    options.base !== undefined
      ? { spec: options.base, from: '--base' as const }
      : fromEnv
        ? { spec: fromEnv, from: 'EVENTRY_BASE' as const }
        : undefined;
  let chosen = explicit ? resolveGateBase(cwd, { catalogueDir, scope: '' }, explicit) : undefined;
  let given =
    chosen?.ok && chosen.value.kind !== 'empty' ? resolveSource(chosen.value.ref, sourceOptions) : undefined;
  if (chosen?.ok && given && !given.ok && given.reason !== 'problems') {
    return cannotSee(cwd, given.reason, `${explicit!.from} ${given.message}`);
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

  chosen ??= resolveGateBase(cwd, { catalogueDir, scope: after.catalogue.config.scope });
  if (!chosen.ok) {
    process.stderr.write(`eventry check: error ${chosen.problem.code}: ${chosen.problem.message}\n`);
    return EXIT_USAGE;
  }
  const chosenBase = chosen.value;
  process.stdout.write(`eventry check: base ${describeBase(chosenBase)}.\n`);
  given ??= chosenBase.kind === 'empty' ? undefined : resolveSource(chosenBase.ref, sourceOptions);
  let baseSource: ResolvedSource;
  if (
    !given ||
    (!given.ok && given.reason === 'absent' && chosenBase.kind === 'commit' && chosenBase.neverReleased)
  ) {
    // Nothing was ever released: against an empty catalogue every event is new, which is what it is.
    baseSource = emptySource(after);
  } else if (!given.ok) {
    if (given.reason !== 'problems') return cannotSee(cwd, given.reason, given.message);
    process.stderr.write(
      `eventry check: error base-does-not-load: the catalogue at the base ${describeBase(chosenBase)} has ${given.problems.length} problem(s), so the gate cannot compare with it.\n` +
        '    fix: name a base whose catalogue loads with --base or EVENTRY_BASE (`eventry diff <base> catalogue` shows its problems).\n',
    );
    return EXIT_USAGE;
  } else {
    baseSource = given.source;
  }
  const base = { source: baseSource };
  const baseSpec =
    chosenBase.kind === 'commit'
      ? chosenBase.commit
      : chosenBase.kind === 'given'
        ? chosenBase.ref
        : undefined;

  const earlier =
    baseSpec === undefined ? [] : earlierEntries(cwd, catalogueDir, after.catalogue.config.scope, baseSpec);
  const outcome = checkVersionPolicy(base.source, after, allowList.entries, earlier);
  const diagnostics = gateDiagnostics(outcome, base.source.label);
  const print = options.format === 'github' ? githubLine : textLine;
  for (const diagnostic of diagnostics) process.stdout.write(`${print(diagnostic, after.root)}\n`);
  const consumers = checkConsumers(base.source, after, outcome, options.format ?? 'text');
  if (consumers === undefined) return 1;
  const stale = outcome.stale.length + outcome.expired.length;
  // The lint pack: new findings are printed, new errors fail the gate (generators/lint/gate.ts).
  const lint = lintForGate(
    after.catalogue,
    resolve(cwd, catalogueDir),
    catalogueDir,
    options.format ?? 'text',
  );
  process.stdout.write(lint.output);
  const errors =
    outcome.blocked.length - consumers.unreadPassing + stale + consumers.broken + (lint.failed ? 1 : 0);
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

/** Prints why the base cannot be seen and how to fix it: a usage error, never a pass. */
function cannotSee(cwd: string, reason: 'usage' | 'absent', message: string): number {
  const code =
    reason === 'absent' && / has no catalogue /.test(message) ? 'base-without-catalogue' : 'base-not-found';
  const hint =
    code === 'base-not-found'
      ? missingBaseHint(cwd)
      : 'name a base that holds the catalogue with --base or EVENTRY_BASE (before the first release, set neither: the gate then compares with the root commit).';
  process.stderr.write(`eventry check: error ${code}: ${message}\n    fix: ${hint}\n`);
  return EXIT_USAGE;
}

/** The catalogue before anything was released: the current configuration, no groups, shapes or events. */
function emptySource(current: ResolvedSource): ResolvedSource {
  const catalogue = { ...current.catalogue, groups: [], shapes: {}, events: {} };
  return { kind: 'empty', label: 'an empty catalogue', catalogue, root: current.root, packageVersions: {} };
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
