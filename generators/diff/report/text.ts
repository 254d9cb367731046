import { formatImpactText } from '../impact-report.js';
import { capitalize, type Severity } from '../rule.js';
import {
  breaksSentence,
  changedPackages,
  type DiffReport,
  eventFindings,
  reachList,
  shapeChanges,
  summaryLine,
  versionMove,
} from './report.js';

const MARK: Record<Severity, string> = { breaking: '✖', 'non-breaking': '+', docs: '·' };

/**
 * The report for a terminal: per package, per event, one line per finding (with the fix when the
 * version gate blocks it); then each change made in a shape once, with the events it reaches.
 */
export function formatText(report: DiffReport): string {
  const lines = [
    `Comparing ${report.before.label} → ${report.after.label} (catalogue ${report.before.version} → ${report.after.version})`,
  ];
  for (const { pkg, findings } of changedPackages(report)) {
    lines.push('', `${pkg.name}  ${versionMove(pkg)} (${pkg.bump})`);
    for (const [event, list] of eventFindings(findings)) {
      lines.push(`  ${event}`);
      for (const finding of list) {
        lines.push(
          `    ${MARK[finding.severity]} ${finding.severity} [${finding.rule}] ${finding.detail}${breaksSentence(finding.breaks)}`,
        );
        const fix = report.fixes.get(finding);
        if (fix) lines.push(`      fix: ${fix}`);
      }
    }
    let shape: string | undefined;
    for (const change of shapeChanges(findings)) {
      if (change.shape !== shape) lines.push(`  via shape ${change.shape}`);
      shape = change.shape;
      lines.push(
        `    ${MARK[change.severity]} ${change.severity} [${change.rule}] ${change.detail}${breaksSentence(change.breaks)}`,
        `      reaches ${reachList(change.reaches)}`,
      );
      const fix = report.shapeFixes.get(change.key);
      if (fix) lines.push(`      fix: ${fix}`);
    }
  }
  lines.push('', `${capitalize(summaryLine(report.findings))}.`);
  const consumers = report.impact ? formatImpactText(report.impact) : '';
  return `${lines.join('\n')}\n${consumers ? `\n${consumers}` : ''}`;
}
