import { resolve } from 'node:path';
import type { GateOutcome } from '../diff/gate.js';
import { type GateRun, type GateVerdict, runGate } from '../diff/gate-run.js';
import { formatImpactText } from '../diff/impact-report.js';
import { escapeData, escapeProperty, formatImpactGithub } from '../diff/report/github.js';
import { breaksSentence } from '../diff/report/report.js';
import { FastLoad, readOnlyParseCache } from '../execute/fast/load/index.js';
import { ALLOW_LIST_FILE, formatProblem } from '../load/index.js';
import type { SourceLocation } from '../model.js';
import { describeBase } from '../release/base.js';
import { EXIT, type ExitStatus } from '../shared/exit-codes.js';
import type { SourceOptions } from '../sources/source.js';
import type { Container } from './container.js';
import { usageError } from './usage-error.js';

/** Options of `eventry check`. */
export interface CheckCommandOptions {
  /**
   * Git ref (or catalogue directory) of the last accepted state: `main`, a release tag. Without it:
   * `EVENTRY_BASE`, else the last release (see `resolveGateBase`).
   */
  base?: string;
  catalogue?: string;
  format?: 'text' | 'github';
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
 * `eventry check [--base REF]`: the version policy gate (`diff/gate-run.ts`). Exit 1 when an existing
 * event version changed in a breaking way that the allow-list does not name, when an allow-list entry
 * matches nothing or outlived a whole release, or when the catalogue does not load; 0 otherwise; 2 on
 * a usage error, and when the base cannot be seen (a shallow clone, a ref that names no commit, a base
 * that does not load).
 */
export async function runCheck(options: CheckCommandOptions, io: Container): Promise<ExitStatus> {
  const { cwd } = io;
  const catalogueDir = options.catalogue ?? 'catalogue';
  // The catalogue and its base share most files: each file both hold alike is parsed once, and most
  // were parsed by the last `eventry build` already (its parse cache, in the project's .eventry/cache/).
  // Only read, and only when there is one: a CI run starts without it, and storing would only cost it.
  const cache = readOnlyParseCache([resolve(cwd, catalogueDir)]);
  const sourceOptions: SourceOptions = {
    cwd,
    env: io.env,
    catalogue: catalogueDir,
    load: { accelerator: new FastLoad({ memo: true, ...(cache ? { cache } : {}) }), ownership: 'defer' },
  };
  const fromEnv = io.env.EVENTRY_BASE?.trim();
  const base =
    options.base !== undefined
      ? { spec: options.base, from: '--base' as const }
      : fromEnv
        ? { spec: fromEnv, from: 'EVENTRY_BASE' as const }
        : undefined;
  const format = options.format ?? 'text';
  const run = runGate({ source: sourceOptions, ...(base ? { base } : {}), format });
  return printGate(run, format, io);
}

/** Prints the gate's result and returns the exit status. */
function printGate(run: GateRun, format: 'text' | 'github', io: Container): ExitStatus {
  const out = (text: string) => io.stdout.write(text);
  const baseLine = (base: GateVerdict['base']) => out(`eventry check: base ${describeBase(base)}.\n`);
  switch (run.kind) {
    case 'usage':
      return usageError(io, 'check', run.message);
    case 'catalogue-problems':
      for (const problem of run.problems) out(`${formatProblem(problem, run.root)}\n`);
      out(`eventry check: the catalogue has ${run.problems.length} problem(s).\n`);
      return EXIT.problems;
    case 'allow-list-problems':
      for (const problem of run.problems) out(`${formatProblem(problem, run.root)}\n`);
      return EXIT.problems;
    case 'base-problem':
      io.stderr.write(`eventry check: error ${run.code}: ${run.message}\n`);
      return EXIT.usage;
    case 'base-unseen':
      if (run.base) baseLine(run.base);
      io.stderr.write(`eventry check: error ${run.code}: ${run.message}\n    fix: ${run.hint}\n`);
      return EXIT.usage;
    case 'base-does-not-load':
      baseLine(run.base);
      io.stderr.write(
        `eventry check: error base-does-not-load: the catalogue at the base ${describeBase(run.base)} has ${run.problems} problem(s), so the gate cannot compare with it.\n` +
          '    fix: name a base whose catalogue loads with --base or EVENTRY_BASE (`eventry diff <base> catalogue` shows its problems).\n',
      );
      return EXIT.usage;
    case 'gated':
      baseLine(run.base);
      return printVerdict(run, format, io);
  }
}

/** Prints the findings, whom they break, the lint and the summary line. */
function printVerdict(run: GateVerdict, format: 'text' | 'github', io: Container): ExitStatus {
  const out = (text: string) => io.stdout.write(text);
  const { outcome, consumers, root } = run;
  const print = format === 'github' ? githubLine : textLine;
  for (const diagnostic of gateDiagnostics(outcome, run.baseLabel)) out(`${print(diagnostic, root)}\n`);
  if (consumers.kind === 'declaration-problems') {
    for (const problem of consumers.problems) out(`${formatProblem(problem, root)}\n`);
    return EXIT.problems;
  }
  out(format === 'github' ? formatImpactGithub(consumers.impact, root) : formatImpactText(consumers.impact));
  const { broken } = consumers;
  if (broken.length > 0)
    out(
      `eventry check: ${broken.length} consumer(s) broken: ${broken.map((entry) => `${entry.team} (${entry.event})`).join(', ')}.\n`,
    );
  if (consumers.unreadPassing > 0)
    out(
      `eventry check: ${consumers.unreadPassing} breaking change(s) no declared consumer reads pass (consumers.unread_breaking: warn).\n`,
    );
  const stale = outcome.stale.length + outcome.expired.length;
  out(run.lint?.output ?? '');
  const errors =
    outcome.blocked.length - consumers.unreadPassing + stale + broken.length + (run.lint?.failed ? 1 : 0);
  out(
    `eventry check: ${outcome.blocked.length} breaking change(s) to existing event versions blocked, ` +
      `${outcome.allowed.length} allowed by ${ALLOW_LIST_FILE}, ${stale} stale allow-list entr${stale === 1 ? 'y' : 'ies'} ` +
      `(base ${run.baseLabel}): ${errors > 0 ? 'failed' : 'passed'}.\n`,
  );
  return errors > 0 ? EXIT.problems : EXIT.ok;
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
