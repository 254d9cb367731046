import type { ConsumerImpact, ImpactReport } from '../diff/impact.js';
import { code, type Finding } from '../diff/rule.js';
import { upcastTarget } from '../migrate/path.js';
import type { Catalogue } from '../model.js';

// The gate's consumer report, told about the catalogue's migrations (issue 46): a team that reads a
// version a newer one upgrades from can `upcast` what it still meets, and removing a deprecated version
// whose replacement upgrades from it loses no reader's payloads. Every `upgrade` the model holds is
// verified at build (each old payload becomes one the new version accepts), so the gate names it as such.

/**
 * The newest version of `after` that a payload of `key` reaches by upgrades: `after`'s own, else (for a
 * version this change removes, which `after` can no longer upgrade from) the base's, when it is still there.
 */
export function upcastOf(key: string, before: Catalogue, after: Catalogue): string | undefined {
  const now = upcastTarget(after, key);
  if (now !== undefined) return now;
  const then = upcastTarget(before, key);
  return then !== undefined && then in after.events ? then : undefined;
}

/** The sentence a fix or a finding ends with: who can `upcast` to what. */
function upcastSentence(from: string, to: string): string {
  return `Readers of ${code(from)} can \`upcast\` to ${code(to)}: its \`upgrade\` from ${code(from)} is verified at build.`;
}

/** A removed deprecated version's finding, saying that its replacement upgrades from it. */
function removalFinding(finding: Finding, before: Catalogue, after: Catalogue): Finding {
  if (finding.rule !== 'event-removed') return finding;
  const to = upcastOf(finding.event, before, after);
  if (to === undefined) return finding;
  return { ...finding, detail: `${finding.detail} ${upcastSentence(finding.event, to)}` };
}

/**
 * The consumer report with the migrations named: each fix for a team still reading a version that a
 * newer one upgrades from says it can `upcast`; each removal of a deprecated version whose replacement
 * upgrades from it says so in its finding. The findings are replaced, never edited in place.
 */
export function withUpcasts(report: ImpactReport, before: Catalogue, after: Catalogue): ImpactReport {
  const findings = new Map<Finding, Finding>();
  const amended = (finding: Finding) => {
    const found = findings.get(finding) ?? removalFinding(finding, before, after);
    findings.set(finding, found);
    return found;
  };
  const impacts = report.impacts.map((impact): ConsumerImpact => {
    const causes = impact.causes.map((cause) => ({ ...cause, finding: amended(cause.finding) }));
    const affected = impact.status === 'broken' || impact.status === 'potentially-affected';
    const target = affected ? upcastOf(impact.event, before, after) : undefined;
    const fix = target === undefined ? impact.fix : `${impact.fix} ${upcastSentence(impact.event, target)}`;
    return { ...impact, causes, fix };
  });
  return { ...report, impacts, unread: report.unread.map(amended) };
}
