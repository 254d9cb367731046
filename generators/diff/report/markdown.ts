import { formatImpactMarkdown } from '../impact-report.js';
import type { Finding, Severity } from '../rule.js';
import { RULES_BY_ID } from '../rules/index.js';
import {
  changedPackages,
  countBySeverity,
  type DiffReport,
  eventFindings,
  reachList,
  shapeChanges,
  versionMove,
  whom,
} from './report.js';

const BADGE: Record<Severity, string> = {
  breaking: '🔴 **Breaking**',
  'non-breaking': '🟢 Non-breaking',
  docs: '📝 Docs',
};

/**
 * A pull-request comment: a summary table with a row per changed group package, then per group and
 * event what changed, whom it breaks, why it matters (the rule's description) and, for what the
 * version gate blocks, the fix; a change made in a shape once, with the events it reaches.
 */
export function formatMarkdown(report: DiffReport): string {
  const counts = countBySeverity(report.findings);
  const out: string[] = [];
  const headline =
    report.findings.length === 0
      ? 'no changes'
      : counts.breaking > 0
        ? `${counts.breaking} breaking change${counts.breaking === 1 ? '' : 's'}`
        : 'no breaking changes';
  out.push(`## Event catalogue: ${headline}`, '');
  out.push(
    `Comparing ${code(report.before.label)} → ${code(report.after.label)} (catalogue ${escapeHtml(report.before.version)} → ${escapeHtml(report.after.version)}): ` +
      `${counts.breaking} breaking, ${counts['non-breaking']} non-breaking, ${counts.docs} docs.`,
  );
  const packages = changedPackages(report);
  if (packages.length === 0) return `${out.join('\n')}\n${consumersSection(report)}`;
  out.push(
    '',
    '| Group | Package | Version | Bump | Breaking | Non-breaking | Docs |',
    '|---|---|---|---|--:|--:|--:|',
  );
  for (const { pkg, findings } of packages) {
    const c = countBySeverity(findings);
    const title = cell(report.groupTitles[pkg.slug] ?? pkg.slug);
    const bump = pkg.bump === 'major' ? '**major**' : pkg.bump;
    out.push(
      `| ${title} | ${code(pkg.name)} | ${versionMove(pkg)} | ${bump} | ${c.breaking} | ${c['non-breaking']} | ${c.docs} |`,
    );
  }
  for (const { pkg, findings } of packages) {
    if (findings.length === 0) continue;
    out.push('', `### ${escapeHtml(report.groupTitles[pkg.slug] ?? pkg.slug)} (${code(pkg.name)})`);
    for (const [event, list] of eventFindings(findings)) {
      out.push('', `#### ${code(event)}`, '');
      for (const finding of list) out.push(...item(finding, report.fixes.get(finding)));
    }
    let shape: string | undefined;
    for (const change of shapeChanges(findings)) {
      if (change.shape !== shape) out.push('', `#### Via shape ${code(change.shape)}`, '');
      shape = change.shape;
      out.push(...item(change, report.shapeFixes.get(change.key)));
      out.push(`  <sub>Reaches ${escapeHtml(reachList(change.reaches))}.</sub>`);
    }
  }
  return `${out.join('\n')}\n${consumersSection(report)}`;
}

function consumersSection(report: DiffReport): string {
  const section = report.impact ? formatImpactMarkdown(report.impact) : '';
  return section ? `\n${section}` : '';
}

function item(finding: Pick<Finding, 'rule' | 'severity' | 'breaks' | 'detail'>, fix?: string): string[] {
  const breaks = finding.breaks === 'none' ? '' : ` for ${whom(finding.breaks)}`;
  const why = RULES_BY_ID.get(finding.rule)?.description ?? '';
  return [
    `- ${BADGE[finding.severity]}${breaks}: ${escapeHtml(finding.detail)}`,
    ...(fix ? [`  <sub>Fix: ${escapeHtml(fix)}</sub>`] : []),
    `  <sub>${code(finding.rule)}: ${escapeHtml(why)}</sub>`,
  ];
}

/** Keeps user text from opening HTML in the comment. */
function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A table cell: no pipes or line breaks. */
function cell(text: string): string {
  return escapeHtml(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** An inline code span that survives backticks in the text. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text}${fence}`;
}
