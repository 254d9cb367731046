import type { SourceLocation } from '../../model.js';
import { impactJson } from '../impact-report.js';
import { countBySeverity, type DiffReport, rootedPath } from './report.js';

/**
 * The machine-readable report: `{compared, summary, changes, packages}`, stable key order, two-space
 * indent. `compared` names the two sides as the text report does; `summary` counts the changes by
 * severity, so a script need not count them itself. Each change
 * names its group and package, the shape it reaches the event through, and where it is in the new
 * catalogue and was in the old one (paths as the user would open them).
 */
export function formatJson(report: DiffReport): string {
  const names = new Map(report.packages.map((pkg) => [pkg.slug, pkg.name]));
  const changes = report.findings.map((finding) => ({
    group: finding.group,
    package: names.get(finding.group) ?? null,
    event: finding.event,
    attr: finding.attr,
    shape: finding.via?.shape ?? null,
    rule: finding.rule,
    severity: finding.severity,
    breaks: finding.breaks,
    detail: finding.detail,
    fix: report.fixes.get(finding) ?? null,
    location: located(report.root, finding.location),
    oldLocation: located(report.beforeRoot, finding.oldLocation),
  }));
  const packages = report.packages.map((pkg) => ({
    name: pkg.name,
    from: pkg.from,
    to: pkg.to,
    bump: pkg.bump,
  }));
  const compared = {
    old: { label: report.before.label, version: report.before.version },
    new: { label: report.after.label, version: report.after.version },
  };
  const summary = { changes: report.findings.length, ...countBySeverity(report.findings) };
  const consumers = report.impact ? { consumers: impactJson(report.impact) } : {};
  return `${JSON.stringify({ compared, summary, changes, packages, ...consumers }, null, 2)}\n`;
}

/** A location as the user would open it, or null. */
export function located(root: string, location: SourceLocation | undefined): SourceLocation | null {
  if (!location) return null;
  return { file: rootedPath(root, location.file), line: location.line, column: location.column };
}
