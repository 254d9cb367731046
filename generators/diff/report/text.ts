import { capitalize, type Severity } from '../rule.js';
import {
  breaksSentence,
  byEvent,
  changedPackages,
  type DiffReport,
  summaryLine,
  versionMove,
} from './report.js';

const MARK: Record<Severity, string> = { breaking: '✖', 'non-breaking': '+', docs: '·' };

/** The report for a terminal: per package, per event, one line per finding. */
export function formatText(report: DiffReport): string {
  const lines = [
    `Comparing ${report.before.label} → ${report.after.label} (catalogue ${report.before.version} → ${report.after.version})`,
  ];
  for (const { pkg, findings } of changedPackages(report)) {
    lines.push('', `${pkg.name}  ${versionMove(pkg)} (${pkg.bump})`);
    for (const [event, list] of byEvent(findings)) {
      lines.push(`  ${event}`);
      for (const finding of list) {
        lines.push(
          `    ${MARK[finding.severity]} ${finding.severity} [${finding.rule}] ${finding.detail}${breaksSentence(finding.breaks)}`,
        );
      }
    }
  }
  lines.push('', `${capitalize(summaryLine(report.findings))}.`);
  return `${lines.join('\n')}\n`;
}
