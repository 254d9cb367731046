import type { DiffReport } from './report.js';

/** The machine-readable report: `{changes, packages}`, stable key order, two-space indent. */
export function formatJson(report: DiffReport): string {
  const changes = report.findings.map((finding) => ({
    event: finding.event,
    attr: finding.attr,
    rule: finding.rule,
    severity: finding.severity,
    breaks: finding.breaks,
    detail: finding.detail,
  }));
  const packages = report.packages.map((pkg) => ({
    name: pkg.name,
    from: pkg.from,
    to: pkg.to,
    bump: pkg.bump,
  }));
  return `${JSON.stringify({ changes, packages }, null, 2)}\n`;
}
