import type { SourceLocation } from '../../model.js';
import { impactJson } from '../impact-report.js';
import type { DiffReport } from './report.js';

/**
 * The machine-readable report: `{changes, packages}`, stable key order, two-space indent. Each change
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
  const consumers = report.impact ? { consumers: impactJson(report.impact) } : {};
  return `${JSON.stringify({ changes, packages, ...consumers }, null, 2)}\n`;
}

function located(root: string, location: SourceLocation | undefined): SourceLocation | null {
  if (!location) return null;
  const file = root && root !== '.' ? `${root.replace(/\/$/, '')}/${location.file}` : location.file;
  return { file, line: location.line, column: location.column };
}
