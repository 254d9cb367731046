import {
  type CatalogueProblem,
  checkDeclarations,
  type PathRelation,
  rangeMatches,
  relatePaths,
  versionsByType,
} from '../load/index.js';
import type { Catalogue, ConsumerAcceptance, ConsumerDeclaration, Ownership } from '../model.js';
import { compareCatalogues } from './index.js';
import { code, type Finding } from './rule.js';

/** What a change means for one consumer of one event version, from the worst to the mildest. */
export type ImpactStatus = 'broken' | 'potentially-affected' | 'safe' | 'unaffected';

/** One finding as one consumer meets it. */
export interface ImpactCause {
  finding: Finding;
  status: ImpactStatus;
  /** The declared field the finding reaches (`*` or undefined when the team declared none). */
  field?: string;
  /** The team's `accepts:` entry, when the status is `safe`. */
  acceptance?: ConsumerAcceptance;
  /** The change adds what a `reader: strict` consumer rejects (a field, an enum value), read or not. */
  rejected?: true;
}

/** What a change does to one team's reading of one event version. */
export interface ConsumerImpact {
  team: string;
  teamName: string;
  /** The event key. */
  event: string;
  status: ImpactStatus;
  reader: ConsumerDeclaration['reader'];
  services: string[];
  causes: ImpactCause[];
  /** What to do about it (empty when unaffected). */
  fix: string;
  /** Code-owner handles to ask for review: the consuming team's and the event's owning team's. */
  reviewers: string[];
  /** Where the declaration is written. */
  declaration: ConsumerDeclaration['source'];
}

/** A deprecated event version some consumers still declare they read. */
export interface DeprecatedReaders {
  event: string;
  replacedBy?: string;
  teams: string[];
}

/** The consumer-aware view of a diff. */
export interface ImpactReport {
  /** Per team and event version that a finding reaches, worst first. */
  impacts: ConsumerImpact[];
  /** Breaking findings no declared consumer reads (still breaking for undeclared ones). */
  unread: Finding[];
  deprecated: DeprecatedReaders[];
  /** Every reviewer to ask, sorted. */
  reviewers: string[];
}

const RANK: Record<ImpactStatus, number> = { broken: 0, 'potentially-affected': 1, safe: 2, unaffected: 3 };

/** Whether a finding can break a reader of the event at all. */
function reachesConsumers(finding: Finding): boolean {
  return finding.severity === 'breaking' && (finding.breaks === 'consumers' || finding.breaks === 'both');
}

/**
 * Changes that let a payload carry what it could not before: harmless to a tolerant reader, yet a
 * `reader: strict` consumer rejects a field or an enum value it does not know, whatever fields it reads.
 */
const STRICT_READER_BREAKS: ReadonlySet<string> = new Set([
  'optional-field-added',
  'required-field-added',
  'enum-value-added',
  'object-opened',
]);

/** Whether a finding breaks the readers of its event that declare `reader`. */
function reachesReader(finding: Finding, reader: ConsumerDeclaration['reader']): boolean {
  return reachesConsumers(finding) || (reader === 'strict' && STRICT_READER_BREAKS.has(finding.rule));
}

/**
 * Intersects the findings of a diff with the consumer declarations of `ownership` (the new side's):
 * each declaration's range is matched against the versions of both sides, so removing a version a
 * team still reads is `broken` for that team.
 */
export function computeImpact(
  findings: readonly Finding[],
  before: Catalogue,
  after: Catalogue,
  ownership: Ownership | undefined,
): ImpactReport {
  const report: ImpactReport = { impacts: [], unread: [], deprecated: [], reviewers: [] };
  if (!ownership) return report;
  const byEvent = new Map<string, Finding[]>();
  for (const finding of findings.filter((finding) => reachesReader(finding, 'strict'))) {
    const list = byEvent.get(finding.event);
    if (list) list.push(finding);
    else byEvent.set(finding.event, [finding]);
  }
  const types = versionsByType([before, after]);
  const owners = new Map<string, string>();
  for (const group of [...before.groups, ...after.groups])
    if (group.owner) owners.set(group.slug, group.owner);
  const read = new Set<Finding>();
  for (const declaration of ownership.consumers) {
    for (const version of types.get(declaration.event) ?? []) {
      const changes = byEvent
        .get(version.key)
        ?.filter((finding) => reachesReader(finding, declaration.reader));
      if (!changes?.length || !safeMatch(declaration.versions, version.version)) continue;
      const causes = changes.map((finding) => causeOf(finding, declaration, ownership.acceptances));
      for (const cause of causes) if (cause.status !== 'unaffected') read.add(cause.finding);
      const status = causes.reduce<ImpactStatus>(
        (worst, cause) => (RANK[cause.status] < RANK[worst] ? cause.status : worst),
        'unaffected',
      );
      const owner = owners.get((after.events[version.key] ?? before.events[version.key])?.group ?? '');
      const reviewers = status === 'unaffected' ? [] : reviewersOf([declaration.team, owner], ownership);
      report.impacts.push({
        team: declaration.team,
        teamName: ownership.teams[declaration.team]?.name ?? declaration.team,
        event: version.key,
        status,
        reader: declaration.reader,
        services: declaration.services ?? [],
        causes: causes.filter((cause) => cause.status === status),
        fix: fixOf(status, declaration, version.key, causes),
        reviewers,
        declaration: declaration.source,
      });
    }
  }
  report.impacts.sort(
    (a, b) =>
      RANK[a.status] - RANK[b.status] || a.team.localeCompare(b.team) || a.event.localeCompare(b.event),
  );
  report.unread = findings.filter((finding) => reachesConsumers(finding) && !read.has(finding));
  report.deprecated = deprecatedReaders(after, ownership);
  report.reviewers = [...new Set(report.impacts.flatMap((impact) => impact.reviewers))].sort();
  return report;
}

function safeMatch(range: string, version: string): boolean {
  try {
    return rangeMatches(range, version);
  } catch {
    return false; // an invalid range is the loader's problem (`invalid-version-range`)
  }
}

/** How one finding meets one declaration. */
function causeOf(
  finding: Finding,
  declaration: ConsumerDeclaration,
  acceptances: readonly ConsumerAcceptance[],
): ImpactCause {
  let cause: ImpactCause = { finding, status: 'unaffected' };
  // A tolerant reader takes an enum value it does not know; a strict one rejects the payload.
  if (finding.rule === 'enum-value-added' && declaration.reader === 'tolerant') return cause;
  if (declaration.reader === 'strict' && STRICT_READER_BREAKS.has(finding.rule))
    cause = { finding, status: 'broken', rejected: true };
  else if (finding.attr === null && finding.reads === undefined) cause = { finding, status: 'broken' };
  else if (!declaration.fields) cause = { finding, status: 'potentially-affected' };
  else {
    // A data rule concerns the fields it reads, not only the one its error names (`attr`).
    const paths = finding.reads ?? [finding.attr!];
    for (const field of declaration.fields) {
      for (const path of paths) {
        const status = statusOf(relatePaths(field, path));
        if (RANK[status] < RANK[cause.status]) cause = { finding, status, field };
      }
    }
  }
  if (cause.status === 'unaffected') return cause;
  const acceptance = acceptances.find(
    (entry) =>
      entry.team === declaration.team &&
      entry.event === finding.event &&
      entry.rule === finding.rule &&
      (entry.attr === undefined || entry.attr === finding.attr),
  );
  return acceptance ? { ...cause, status: 'safe', acceptance } : cause;
}

function statusOf(relation: PathRelation): ImpactStatus {
  if (relation === 'same' || relation === 'inside-changed') return 'broken';
  if (relation === 'covers-changed' || relation === 'wildcard') return 'potentially-affected';
  return 'unaffected';
}

function reviewersOf(teams: (string | undefined)[], ownership: Ownership): string[] {
  return [
    ...new Set(
      teams.flatMap((team) => {
        const found = team === undefined ? undefined : ownership.teams[team];
        return found ? [found.codeOwner ?? found.contact] : [];
      }),
    ),
  ];
}

function fixOf(
  status: ImpactStatus,
  declaration: ConsumerDeclaration,
  event: string,
  causes: readonly ImpactCause[],
): string {
  const file = `consumers/${declaration.team}.yaml`;
  const broken = causes.filter((cause) => cause.status === 'broken');
  if (status === 'broken' && broken.every((cause) => cause.rejected)) {
    const added = [...new Set(broken.map((cause) => cause.finding.attr ?? 'unlisted fields'))].map(code);
    return `${declaration.team} reads ${code(event)} as a strict reader and rejects what it does not know (${added.join(', ')}): make the addition in a new version that ${declaration.team} moves to; or, once ${declaration.team} agrees, it reads tolerantly (\`reader: tolerant\`) or adds an \`accepts:\` entry in ${code(file)}.`;
  }
  if (
    status === 'broken' &&
    causes.some((cause) => cause.status === 'broken' && cause.finding.attr === null)
  ) {
    return `Keep ${code(event)} until ${declaration.team} has moved off it (it still declares \`${declaration.event}: ${declaration.versions}\`); or, once ${declaration.team} agrees, it narrows \`versions\` in ${code(file)} or adds an \`accepts:\` entry there.`;
  }
  if (status === 'broken') {
    const fields = [...new Set(causes.filter((cause) => cause.status === 'broken').map((c) => c.field))];
    const what = fields.some((field) => field !== undefined)
      ? `it reads ${fields
          .filter((f) => f !== undefined)
          .map(code)
          .join(', ')}`
      : 'it reads this event version';
    return `Keep ${code(event)} as it was and make the change in a new version that ${declaration.team} moves to (${what}); or, once ${declaration.team} agrees, it adds an \`accepts:\` entry to ${code(file)}.`;
  }
  if (status === 'potentially-affected')
    return `Ask ${declaration.team} whether it reads the changed fields, and have it list them in ${code(file)} (\`fields:\`), or accept the change there (\`accepts:\`).`;
  if (status === 'safe') return `Accepted by ${declaration.team}: ${causes[0]?.acceptance?.reason ?? ''}`;
  return '';
}

/** For each deprecated event version of `after`, the teams whose declarations still take it in. */
function deprecatedReaders(after: Catalogue, ownership: Ownership): DeprecatedReaders[] {
  const types = versionsByType([after]);
  const result: DeprecatedReaders[] = [];
  const byType = new Map<string, ConsumerDeclaration[]>();
  for (const declaration of ownership.consumers) {
    const list = byType.get(declaration.event);
    if (list) list.push(declaration);
    else byType.set(declaration.event, [declaration]);
  }
  for (const [type, declarations] of byType) {
    for (const version of types.get(type) ?? []) {
      const event = after.events[version.key];
      if (!event?.deprecated) continue;
      const teams = declarations
        .filter((declaration) => safeMatch(declaration.versions, version.version))
        .map((declaration) => declaration.team);
      if (teams.length === 0) continue;
      result.push({
        event: version.key,
        ...(event.deprecated.replacedBy ? { replacedBy: event.deprecated.replacedBy } : {}),
        teams: [...new Set(teams)].sort(),
      });
    }
  }
  return result.sort((a, b) => a.event.localeCompare(b.event));
}

/**
 * The new side's consumer declarations checked against the versions of both sides (loaded with
 * `ownership: 'defer'`): a team reading a field the change removes is `broken`, not a load problem.
 */
export function checkDeclarationsAcross(before: Catalogue, after: Catalogue): CatalogueProblem[] {
  return after.ownership ? checkDeclarations(after.ownership, [before, after]) : [];
}

/** The impact of the change from `before` to `after` on the consumers `after` declares. */
export function consumerImpact(before: Catalogue, after: Catalogue): ImpactReport {
  return computeImpact(compareCatalogues(before, after), before, after, after.ownership);
}

/**
 * The blocked findings `consumers: {unread_breaking: warn}` lets through: breaking for the schema, yet
 * read by no declared consumer. Without that setting (or without declarations) none: nothing passes by default.
 */
export function unreadPassing(
  blocked: readonly Finding[],
  impact: ImpactReport,
  after: Catalogue,
): Finding[] {
  if (after.config.consumers?.unread_breaking !== 'warn' || !after.ownership) return [];
  // The gate's findings and the impact's may come from two runs of the diff: matched by what they say.
  const id = (finding: Finding) => `${finding.event}\u0000${finding.rule}\u0000${finding.attr ?? ''}`;
  const unread = new Set(impact.unread.map(id));
  return blocked.filter((finding) => unread.has(id(finding)));
}
