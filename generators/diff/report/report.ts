import type { Catalogue } from '../../model.js';
import { fixFor, fixForShape, isGated } from '../gate.js';
import { computeImpact, type ImpactReport } from '../impact.js';
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
  /** The same for locations in the old catalogue (a path inside the old commit, or a package file). */
  beforeRoot: string;
  /** What a catalogue editor should do instead of a change the version gate blocks (not for consumers). */
  fixes: Map<Finding, string>;
  /** The same for a blocked change made in a shape, by `shapeKey`. */
  shapeFixes: Map<string, string>;
  /** Whom the changes break, when the new side declares its consumers (`consumers/`). */
  impact?: ImpactReport;
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
  const fixes = new Map<Finding, string>();
  for (const finding of findings.filter(isGated)) {
    fixes.set(finding, fixFor(finding, before.catalogue, after.catalogue));
  }
  const shapeFixes = shapeFixesFor(findings.filter(isGated), before.catalogue, after.catalogue);
  return {
    before: { label: before.label, version: before.catalogue.config.version },
    after: { label: after.label, version: after.catalogue.config.version },
    findings,
    packages: packageBumps(findings, before.catalogue, after.catalogue, before.packageVersions ?? {}),
    groupTitles,
    root: after.root ?? '',
    beforeRoot: before.root ?? '',
    fixes,
    shapeFixes,
    ...(after.catalogue.ownership
      ? { impact: computeImpact(findings, before.catalogue, after.catalogue, after.catalogue.ownership) }
      : {}),
  };
}

/** One change made in a named shape, listed once with every event (and path) it reaches. */
export interface ShapeChange {
  /** Identifies the change across events: shape, rule and detail. */
  key: string;
  shape: string;
  rule: string;
  severity: Severity;
  breaks: Breaks;
  /** Said of the shape (`Field \`number\` … was removed.`). */
  detail: string;
  reaches: { event: string; attr: string | null }[];
  /** The first of its findings (for its location). */
  first: Finding;
}

/** What identifies a change made in a shape across the events it reaches: shape, rule and detail. */
export function shapeKey(finding: Finding): string {
  return finding.via ? `${finding.via.shape}\0${finding.rule}\0${finding.via.detail}` : '';
}

/** Changes made in shapes, each once, by shape name, then in the order they are first met. */
export function shapeChanges(findings: readonly Finding[]): ShapeChange[] {
  const changes = new Map<string, ShapeChange>();
  for (const finding of findings) {
    if (!finding.via) continue;
    const key = shapeKey(finding);
    let change = changes.get(key);
    if (!change) {
      change = {
        key,
        shape: finding.via.shape,
        rule: finding.rule,
        severity: finding.severity,
        breaks: finding.breaks,
        detail: finding.via.detail,
        reaches: [],
        first: finding,
      };
      changes.set(key, change);
    }
    change.reaches.push({ event: finding.event, attr: finding.attr });
  }
  return [...changes.values()].sort((a, b) => (a.shape < b.shape ? -1 : a.shape > b.shape ? 1 : 0));
}

/** What to do instead of each change made in a shape, by `ShapeChange.key`, once for all the events it reaches. */
export function shapeFixesFor(
  findings: readonly Finding[],
  before: Catalogue,
  after: Catalogue,
): Map<string, string> {
  const fixes = new Map<string, string>();
  for (const change of shapeChanges(findings)) {
    const events = [...new Set(change.reaches.map((reach) => reach.event))];
    fixes.set(change.key, fixForShape(change.shape, events, before, after));
  }
  return fixes;
}

/** Findings by event, leaving out those made in a shape (`shapeChanges` lists those once). */
export function eventFindings(findings: readonly Finding[]): Map<string, Finding[]> {
  return byEvent(findings.filter((finding) => !finding.via));
}

/** `\`a-v1\` (\`ledger.number\`), \`b-v1\``: the events a shape change reaches, with the path in each. */
export function reachList(reaches: ShapeChange['reaches']): string {
  return reaches
    .map(({ event, attr }) => (attr === null ? `\`${event}\`` : `\`${event}\` (\`${attr}\`)`))
    .join(', ');
}

/** `file` as the user would open it: under `root` (how the catalogue was named), unless that is `.` or empty. */
export function rootedPath(root: string, file: string): string {
  return root && root !== '.' ? `${root.replace(/\/$/, '')}/${file}` : file;
}

/** Findings per severity. */
export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { breaking: 0, 'non-breaking': 0, docs: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  return counts;
}

/** Findings of one group, by event key (insertion order is already by key). */
function byEvent(findings: readonly Finding[]): Map<string, Finding[]> {
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
