import { formatImpactMarkdown, formatImpactText, impactJson, mdEscape } from '../diff/impact-report.js';
import { escapeData, escapeProperty, formatImpactGithub } from '../diff/report/github.js';
import { located } from '../diff/report/json.js';
import { breaksSentence, reachList, rootedPath, shapeChanges, shapeKey } from '../diff/report/report.js';
import type { Finding } from '../diff/rule.js';
import { formatJson as lintJson } from '../lint/report/json.js';
import { ALLOW_LIST_FILE } from '../load/index.js';
import type { SourceLocation } from '../model.js';
import type { GateVerdict } from './verdict.js';

// `eventry check`'s verdict in each format: the data (diagnostics, tally) once, the formats around it.

/** The formats `eventry check --format` prints. */
export type GateFormat = 'text' | 'github' | 'json' | 'markdown';

/** One line of the gate's findings: a blocked change (once per shape change), an allow-list entry. */
export interface GateDiagnostic {
  level: 'error' | 'warning';
  code: string;
  message: string;
  hint?: string;
  location?: SourceLocation;
  /** The events a change made in a shared shape reaches, with the path in each. */
  reaches?: { event: string; attr: string | null }[];
}

/** The counts behind the summary line. */
export interface GateTally {
  /** Breaking changes to existing versions that fail the gate. */
  blocked: number;
  /** Breaking changes no declared consumer reads, let through by `consumers.unread_breaking: warn`. */
  unreadPassing: number;
  allowed: number;
  stale: number;
  brokenConsumers: number;
  lintFailed: boolean;
  passed: boolean;
}

/** The unread breaking changes that pass (an empty list when the declarations have problems). */
function passingOf(run: GateVerdict): ReadonlySet<Finding> {
  return new Set(run.consumers.kind === 'impact' ? run.consumers.unreadPassing : []);
}

/** The counts of a verdict, and whether it passes. */
export function gateTally(run: GateVerdict): GateTally {
  const { outcome, consumers } = run;
  const passing = passingOf(run);
  const findings = outcome.blocked.map((entry) => entry.finding);
  // A change made in a shared shape counts once, however many event versions it reaches.
  const blocked = changeCount(findings.filter((finding) => !passing.has(finding)));
  const unreadPassing = changeCount([...passing]);
  const stale = outcome.stale.length + outcome.expired.length;
  const brokenConsumers = consumers.kind === 'impact' ? consumers.broken.length : 0;
  const lintFailed = run.lint?.failed === true;
  const declarationsWrong = consumers.kind === 'declaration-problems';
  const passed = blocked + stale + brokenConsumers === 0 && !lintFailed && !declarationsWrong;
  return {
    blocked,
    unreadPassing,
    allowed: outcome.allowed.length,
    stale,
    brokenConsumers,
    lintFailed,
    passed,
  };
}

/** Changes, counting each one made in a shape once. */
function changeCount(findings: readonly Finding[]): number {
  return findings.filter((finding) => !finding.via).length + shapeChanges(findings).length;
}

/** The last line: what was blocked, allowed and stale, against which base, and the verdict. */
export function gateSummaryLine(run: GateVerdict, tally: GateTally): string {
  const verdict = tally.passed ? 'passed' : 'failed';
  const unread =
    tally.unreadPassing > 0
      ? ` with ${tally.unreadPassing} unread breaking change${tally.unreadPassing === 1 ? '' : 's'} (no declared consumer reads ${tally.unreadPassing === 1 ? 'it' : 'them'}; consumers.unread_breaking: warn)`
      : '';
  return (
    `eventry check: ${tally.blocked} breaking change(s) to existing event versions blocked, ` +
    `${tally.allowed} allowed by ${ALLOW_LIST_FILE}, ${tally.stale} stale allow-list entr${tally.stale === 1 ? 'y' : 'ies'} ` +
    `(base ${run.baseLabel}): ${verdict}${unread}.`
  );
}

/**
 * The gate's findings: each blocked change (a change made in a shared shape once, with the events it
 * reaches and the fix `diff` gives), the unread ones that pass as warnings, then the allow-list's entries.
 */
export function gateDiagnostics(run: GateVerdict): GateDiagnostic[] {
  const { outcome } = run;
  const passing = passingOf(run);
  const diagnostics: GateDiagnostic[] = [];
  for (const { finding, fix } of outcome.blocked) {
    if (finding.via) continue;
    const where = finding.attr === null ? finding.event : `${finding.event} ${finding.attr}`;
    const passes = passing.has(finding);
    diagnostics.push({
      level: passes ? 'warning' : 'error',
      code: finding.rule,
      message: `${where}: ${finding.detail}${breaksSentence(finding.breaks)}${passes ? ' Passes: no declared consumer reads it (consumers.unread_breaking: warn).' : ''}`,
      hint: fix,
      ...(finding.location ? { location: finding.location } : {}),
    });
  }
  const blockedInShapes = outcome.blocked.map((entry) => entry.finding).filter((finding) => finding.via);
  for (const change of shapeChanges(blockedInShapes)) {
    // A shape change passes only when no declared consumer reads it in any event it reaches.
    const passes = blockedInShapes.every(
      (finding) => shapeKey(finding) !== change.key || passing.has(finding),
    );
    diagnostics.push({
      level: passes ? 'warning' : 'error',
      code: change.rule,
      message: `shape ${change.shape}: ${change.detail}${breaksSentence(change.breaks)} Reaches ${reachList(change.reaches)}.`,
      ...(run.shapeFixes.has(change.key) ? { hint: run.shapeFixes.get(change.key) } : {}),
      ...(change.first.location ? { location: change.first.location } : {}),
      reaches: change.reaches,
    });
  }
  diagnostics.push(...allowListDiagnostics(run));
  return diagnostics;
}

function allowListDiagnostics(run: GateVerdict): GateDiagnostic[] {
  const { outcome, baseLabel } = run;
  const diagnostics: GateDiagnostic[] = [];
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

/** The verdict in `format`: text and github lines, or one JSON document, or a markdown comment. */
export function formatGate(run: GateVerdict, format: GateFormat): string {
  if (format === 'json') return formatGateJson(run);
  if (format === 'markdown') return formatGateMarkdown(run);
  const out = [formatGateLines(run, format)];
  if (run.consumers.kind === 'impact') {
    const { impact, broken } = run.consumers;
    out.push(format === 'github' ? formatImpactGithub(impact, run.root) : formatImpactText(impact));
    if (broken.length > 0)
      out.push(
        `eventry check: ${broken.length} consumer(s) broken: ${broken.map((entry) => `${entry.team} (${entry.event})`).join(', ')}.\n`,
      );
  }
  out.push(run.lint?.output ?? '', `${gateSummaryLine(run, gateTally(run))}\n`);
  return out.join('');
}

/** The diagnostics as text or GitHub annotation lines (json and markdown carry them in their document). */
export function formatGateLines(run: GateVerdict, format: GateFormat): string {
  if (format === 'json' || format === 'markdown') return '';
  const line = format === 'github' ? githubLine : textLine;
  return gateDiagnostics(run)
    .map((diagnostic) => `${line(diagnostic, run.root)}\n`)
    .join('');
}

function formatGateJson(run: GateVerdict): string {
  const tally = gateTally(run);
  const diagnostics = gateDiagnostics(run).map(({ location, ...rest }) => ({
    ...rest,
    location: located(run.root, location),
  }));
  const document = {
    base: run.baseLabel,
    verdict: tally.passed ? 'passed' : 'failed',
    summary: {
      blocked: tally.blocked,
      unreadPassing: tally.unreadPassing,
      allowed: tally.allowed,
      staleAllowEntries: tally.stale,
      brokenConsumers: tally.brokenConsumers,
      lintFailed: tally.lintFailed,
    },
    diagnostics,
    consumers: run.consumers.kind === 'impact' ? impactJson(run.consumers.impact) : null,
    lint: run.lint?.result
      ? JSON.parse(lintJson(run.lint.result, run.root))
      : run.lint
        ? { failed: true, output: run.lint.output }
        : null,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

function formatGateMarkdown(run: GateVerdict): string {
  const tally = gateTally(run);
  const out = [
    `## eventry check: ${tally.passed ? 'passed' : 'failed'}`,
    '',
    mdEscape(gateSummaryLine(run, tally)),
    '',
  ];
  const diagnostics = gateDiagnostics(run);
  if (diagnostics.length > 0) {
    out.push('| level | rule | where | change | fix |', '|---|---|---|---|---|');
    for (const diagnostic of diagnostics) {
      const where = diagnostic.location
        ? `\`${mdEscape(rootedPath(run.root, diagnostic.location.file))}:${diagnostic.location.line}\``
        : '';
      out.push(
        `| ${diagnostic.level} | \`${diagnostic.code}\` | ${where} | ${mdEscape(diagnostic.message)} | ${mdEscape(diagnostic.hint ?? '')} |`,
      );
    }
    out.push('');
  }
  if (run.consumers.kind === 'impact') out.push(formatImpactMarkdown(run.consumers.impact));
  if (run.lint) out.push('### Lint', '', '```', run.lint.output.trimEnd(), '```', '');
  return `${out.join('\n').trimEnd()}\n`;
}

/** `file:line:column: error code: message`, as catalogue problems print. */
function textLine(diagnostic: GateDiagnostic, root: string): string {
  const where = diagnostic.location
    ? `${rootedPath(root, diagnostic.location.file)}:${diagnostic.location.line}:${diagnostic.location.column}: `
    : '';
  const hint = diagnostic.hint ? `\n    fix: ${diagnostic.hint}` : '';
  return `${where}${diagnostic.level} ${diagnostic.code}: ${diagnostic.message}${hint}`;
}

function githubLine(diagnostic: GateDiagnostic, root: string): string {
  const properties = diagnostic.location
    ? [
        `file=${escapeProperty(rootedPath(root, diagnostic.location.file))}`,
        `line=${diagnostic.location.line}`,
        `col=${diagnostic.location.column}`,
      ]
    : [];
  properties.push(`title=${escapeProperty(diagnostic.code)}`);
  const text = diagnostic.hint ? `${diagnostic.message}\n${diagnostic.hint}` : diagnostic.message;
  return `::${diagnostic.level} ${properties.join(',')}::${escapeData(text)}`;
}
