import type { Severity } from '../rule.js';
import { breaksSentence, type DiffReport } from './report.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'notice'> = {
  breaking: 'error',
  'non-breaking': 'notice',
  docs: 'notice',
};

/** GitHub Actions workflow commands: one annotation per finding, on the catalogue line it concerns. */
export function formatGithub(report: DiffReport): string {
  const lines = report.findings.map((finding) => {
    const properties: string[] = [];
    if (finding.location) {
      const file = report.root
        ? `${report.root.replace(/\/$/, '')}/${finding.location.file}`
        : finding.location.file;
      properties.push(
        `file=${escapeProperty(file)}`,
        `line=${finding.location.line}`,
        `col=${finding.location.column}`,
      );
    }
    properties.push(`title=${escapeProperty(`${finding.severity} ${finding.rule}: ${finding.event}`)}`);
    return `::${LEVEL[finding.severity]} ${properties.join(',')}::${escapeData(`${finding.detail}${breaksSentence(finding.breaks)}`)}`;
  });
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** Escaping of a workflow command's message. */
export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Escaping of a workflow command's property value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
