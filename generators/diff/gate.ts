import { parseEventKey } from '../load/event-key.js';
import type { Catalogue } from '../model.js';
import { type AllowEntry, allows, sameEntry } from './allow-list.js';
import { code, type Finding, nextVersionKey } from './rule.js';

/**
 * Breaking rules the gate lets through: removing a version is allowed once it was deprecated (the
 * notice versioning asks for); removing it without notice is `event-removed-without-deprecation`.
 */
export const GATE_EXEMPT: ReadonlySet<string> = new Set(['event-removed']);

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
    return `Keep ${code(finding.event)} and deprecate it first (\`deprecated: {since, replaced_by}\`); remove it in a later release, ${allowHint}.`;
  }
  const parsed = parseEventKey(finding.event);
  if (!parsed) return `Restore ${code(finding.event)}, ${allowHint}.`;
  // A version this very change adds is still free to shape; one the base already has is not.
  const next = nextVersionKey(parsed.type, parsed.version, (key) => key in before.events);
  const verb = next in after.events ? `make the change in ${code(next)}` : `add ${code(next)}`;
  return `An existing event version only grows by adding optional fields: ${verb} instead (and deprecate ${code(finding.event)}), ${allowHint}.`;
}
