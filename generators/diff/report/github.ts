import type { SourceLocation } from '../../model.js';
import type { ImpactReport } from '../impact.js';
import { causeText, teamLabel } from '../impact-report.js';
import type { Severity } from '../rule.js';
import { breaksSentence, type DiffReport, reachList, rootedPath, shapeChanges } from './report.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'notice'> = {
  breaking: 'error',
  'non-breaking': 'notice',
  docs: 'notice',
};

/**
 * GitHub Actions workflow commands: one annotation per finding, on the catalogue line it concerns; a
 * change made in a shape once, on the shape's line, naming the events it reaches.
 */
export function formatGithub(report: DiffReport): string {
  const lines: string[] = [];
  for (const finding of report.findings) {
    if (finding.via) continue;
    const title = `${finding.severity} ${finding.rule}: ${finding.event}`;
    const fix = report.fixes.get(finding);
    const text = `${finding.detail}${breaksSentence(finding.breaks)}${fix ? `\n${fix}` : ''}`;
    lines.push(annotation(report.root, finding.severity, finding.location, title, text));
  }
  for (const change of shapeChanges(report.findings)) {
    const title = `${change.severity} ${change.rule}: shape ${change.shape}`;
    const fix = report.shapeFixes.get(change.key);
    const text = `${change.detail}${breaksSentence(change.breaks)} Reaches ${reachList(change.reaches)}.${fix ? `\n${fix}` : ''}`;
    lines.push(annotation(report.root, change.severity, change.first.location, title, text));
  }
  const consumers = report.impact ? formatImpactGithub(report.impact, report.root) : '';
  return (lines.length > 0 ? `${lines.join('\n')}\n` : '') + consumers;
}

function annotation(
  root: string,
  severity: Severity,
  location: SourceLocation | undefined,
  title: string,
  text: string,
): string {
  const properties: string[] = [];
  if (location) {
    const file = root ? `${root.replace(/\/$/, '')}/${location.file}` : location.file;
    properties.push(`file=${escapeProperty(file)}`, `line=${location.line}`, `col=${location.column}`);
  }
  properties.push(`title=${escapeProperty(title)}`);
  return `::${LEVEL[severity]} ${properties.join(',')}::${escapeData(text)}`;
}

/** Escaping of a workflow command's message. */
export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Escaping of a workflow command's property value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

/** GitHub workflow commands: an error per broken consumer, a warning per potentially affected one. */
export function formatImpactGithub(report: ImpactReport, root: string): string {
  const lines: string[] = [];
  for (const impact of report.impacts) {
    if (impact.status !== 'broken' && impact.status !== 'potentially-affected') continue;
    const level = impact.status === 'broken' ? 'error' : 'warning';
    const at = impact.declaration;
    const file = rootedPath(root, at.file);
    const text = [
      `${impact.event}: ${impact.status} for ${teamLabel(impact)}`,
      ...impact.causes.map(causeText),
      `fix: ${impact.fix}`,
      ...(impact.reviewers.length > 0 ? [`ask: ${impact.reviewers.join(', ')}`] : []),
    ].join('\n');
    lines.push(
      `::${level} file=${escapeProperty(file)},line=${at.line},col=${at.column},title=${escapeProperty(`consumer-${impact.status}`)}::${escapeData(text)}`,
    );
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
