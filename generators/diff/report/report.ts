import type { Catalogue } from '../../model.js';
import { compareCatalogues } from '../index.js';
import { type Breaks, type Finding, SEVERITIES, type Severity } from '../rule.js';
import { type PackageBump, packageBumps } from '../semver.js';

/** Everything a formatter needs: pure data, so every format is a pure function of it. */
export interface DiffReport {
  before: { label: string; version: string };
  after: { label: string; version: string };
  /** By event key, then in diff order. */
  findings: Finding[];
  /** Every group package of either side, by slug. */
  packages: PackageBump[];
  /** Group titles by slug (the new title when a group has two). */
  groupTitles: Record<string, string>;
  /** Prefix that makes finding locations relative to the working folder (`catalogue`). */
  root: string;
}

/** One side of a comparison. */
export interface ReportSide {
  label: string;
  catalogue: Catalogue;
  /** Package versions recorded on that side, by slug (used for the old side). */
  packageVersions?: Readonly<Record<string, string>>;
  root?: string;
}

/** Compares two sides and gathers the report. */
export function buildReport(before: ReportSide, after: ReportSide): DiffReport {
  const findings = compareCatalogues(before.catalogue, after.catalogue);
  const groupTitles: Record<string, string> = {};
  for (const group of [...before.catalogue.groups, ...after.catalogue.groups])
    groupTitles[group.slug] = group.title;
  return {
    before: { label: before.label, version: before.catalogue.config.version },
    after: { label: after.label, version: after.catalogue.config.version },
    findings,
    packages: packageBumps(findings, before.catalogue, after.catalogue, before.packageVersions ?? {}),
    groupTitles,
    root: after.root ?? '',
  };
}

/** Findings per severity. */
export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { breaking: 0, 'non-breaking': 0, docs: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}

/** Findings of one group, by event key (insertion order is already by key). */
export function byEvent(findings: readonly Finding[]): Map<string, Finding[]> {
  const events = new Map<string, Finding[]>();
  for (const finding of findings) {
    const list = events.get(finding.event) ?? [];
    list.push(finding);
    events.set(finding.event, list);
  }
  return events;
}

/** Packages that move, with their findings. */
export function changedPackages(report: DiffReport): { pkg: PackageBump; findings: Finding[] }[] {
  return report.packages
    .map((pkg) => ({ pkg, findings: report.findings.filter((finding) => finding.group === pkg.slug) }))
    .filter(({ pkg, findings }) => findings.length > 0 || pkg.from === null || pkg.to === null);
}

/** `producers and consumers`, for sentences. */
export function whom(breaks: Breaks): string {
  return breaks === 'both' ? 'producers and consumers' : breaks;
}

/** ` Breaks producers.` after a finding's detail, or '' when it breaks nobody. */
export function breaksSentence(breaks: Breaks): string {
  return breaks === 'none' ? '' : ` Breaks ${whom(breaks)}.`;
}

/** `1.0.0 → 2.0.0`, `new → 1.0.0`, `1.0.0 → removed`. */
export function versionMove(pkg: PackageBump): string {
  return `${pkg.from ?? 'new'} → ${pkg.to ?? 'removed'}`;
}

/** `3 changes: 1 breaking, 1 non-breaking, 1 docs`. */
export function summaryLine(findings: readonly Finding[]): string {
  if (findings.length === 0) return 'no changes';
  const counts = countBySeverity(findings);
  const parts = SEVERITIES.map((severity) => `${counts[severity]} ${severity}`);
  return `${findings.length} change${findings.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
