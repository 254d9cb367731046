import { parseEventKey } from '../load/event-key.js';
import type { Catalogue } from '../model.js';
import { type AllowEntry, allows, sameEntry } from './allow-list.js';
import { code, type Finding, nextVersionKey } from './rule.js';

/**
 * Breaking rules the gate lets through: removing a version is allowed once it was deprecated (the
 * notice versioning asks for); removing (or moving) it without notice is
 * `event-removed-without-deprecation`.
 */
const GATE_EXEMPT: ReadonlySet<string> = new Set(['event-removed']);

/** A blocked finding with what to do about it. */
export interface BlockedFinding {
  finding: Finding;
  fix: string;
}

/** What the version policy gate decided. */
export interface GateOutcome {
  blocked: BlockedFinding[];
  allowed: { finding: Finding; entry: AllowEntry }[];
  /** Entries added since the base that allow nothing: errors, so the list never outlives its change. */
  stale: AllowEntry[];
  /** Entries the base release already carried: their change is released; delete them (a warning). */
  consumed: AllowEntry[];
  /** Entries an earlier release carried too: a whole release cycle later, still not deleted (an error). */
  expired: AllowEntry[];
}

/** The allow-list entries earlier states carried: the base's, and the release's before it. */
export interface CarriedEntries {
  base: readonly Omit<AllowEntry, 'location'>[];
  earlier: readonly Omit<AllowEntry, 'location'>[];
}

/** Whether the policy blocks a finding (before the allow-list is consulted). */
export function isGated(finding: Finding): boolean {
  return finding.severity === 'breaking' && !GATE_EXEMPT.has(finding.rule);
}

/**
 * The platform's rule: an existing event version only ever grows by adding; anything else needs a new
 * payload version, and nothing is removed without notice. Breaking findings are blocked unless an
 * allow-list entry added since the base names them. An entry is valid from the commit that adds it
 * until the release that carries it: an entry the base already has allows nothing (its change is
 * released, and it must not let a new break with the same name through).
 */
export function evaluateGate(
  findings: readonly Finding[],
  entries: readonly AllowEntry[],
  carried: CarriedEntries,
  before: Catalogue,
  after: Catalogue,
): GateOutcome {
  const outcome: GateOutcome = { blocked: [], allowed: [], stale: [], consumed: [], expired: [] };
  const isIn = (list: CarriedEntries['base'], entry: AllowEntry) => list.some((old) => sameEntry(old, entry));
  const live = entries.filter((entry) => !isIn(carried.base, entry));
  const used = new Set<AllowEntry>();
  for (const finding of findings.filter(isGated)) {
    const entry = live.find((candidate) => allows(candidate, finding));
    if (entry) {
      used.add(entry);
      outcome.allowed.push({ finding, entry });
    } else {
      outcome.blocked.push({ finding, fix: fixFor(finding, before, after) });
    }
  }
  for (const entry of entries) {
    if (used.has(entry)) continue;
    if (!isIn(carried.base, entry)) outcome.stale.push(entry);
    else if (isIn(carried.earlier, entry)) outcome.expired.push(entry);
    else outcome.consumed.push(entry);
  }
  return outcome;
}

/** What to do instead of the blocked change. */
export function fixFor(finding: Finding, before: Catalogue, after: Catalogue): string {
  const allowHint =
    'or, if the break is intended and agreed, list it in `allow-breaking.yaml` (event, rule, reason)';
  if (finding.rule === 'event-removed-without-deprecation') {
    const moved = after.events[finding.event];
    if (moved && moved.group !== finding.group) {
      // A key names one event in the whole catalogue, so it cannot stay in both packages.
      const parsed = parseEventKey(finding.event);
      const next = parsed && nextVersionKey(parsed.type, parsed.version, (key) => key in after.events);
      const instead = next ? `; give group ${code(moved.group)} the next version ${code(next)} instead` : '';
      return `Keep ${code(finding.event)} in group ${code(finding.group)} and deprecate it there (\`deprecated: {since, replaced_by}\`)${instead}; remove it in a later release, ${allowHint}.`;
    }
    return `Keep ${code(finding.event)} and deprecate it first (\`deprecated: {since, replaced_by}\`); remove it in a later release, ${allowHint}.`;
  }
  const next = nextVersion(finding.event, before, after);
  if (!next) return `Restore ${code(finding.event)}, ${allowHint}.`;
  return `An existing event version only grows by adding optional fields: ${next.verb} instead (and deprecate ${code(finding.event)}), ${allowHint}.`;
}

/** What to do instead of a blocked change made in a shared shape, once for all the events it reaches. */
export function fixForShape(
  shape: string,
  events: readonly string[],
  before: Catalogue,
  after: Catalogue,
): string {
  // Two versions of one event (`-v1`, `-v2`) have the same next version: it is named once.
  const next = new Set(
    events.map((event) => nextVersion(event, before, after)?.key).filter((key) => key !== undefined),
  );
  const list = [...next].map(code).join(', ');
  return `Shape ${code(shape)} is shared by ${events.length} event version${events.length === 1 ? '' : 's'}: leave it as it was, make the change in a new shape used by ${list || 'new event versions'} (deprecating the versions they replace), or, if the break is intended and agreed, list it per event in \`allow-breaking.yaml\`.`;
}

/** The next payload version of an event: to add, or already added by this change and still free to shape. */
function nextVersion(
  event: string,
  before: Catalogue,
  after: Catalogue,
): { key: string; verb: string } | undefined {
  const parsed = parseEventKey(event);
  if (!parsed) return undefined;
  // A version this very change adds is still free to shape; one the base already has is not.
  const key = nextVersionKey(parsed.type, parsed.version, (candidate) => candidate in before.events);
  return { key, verb: key in after.events ? `make the change in ${code(key)}` : `add ${code(key)}` };
}
