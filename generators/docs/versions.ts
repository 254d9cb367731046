import { compareCatalogues, type Finding } from '../diff/index.js';
import type { Catalogue, EventVersion } from '../model.js';

// Titles and descriptions name their version: that they differ between versions says nothing.
const TEXT_RULES = new Set(['title-changed', 'description-changed']);

/**
 * The semantic diff between two versions of one event type: eventry's findings, as if `from` had been
 * edited into `to`. Both are put under one key in otherwise empty catalogues (shapes kept, so shape
 * fields compare field by field), which is exactly what the diff compares across catalogues. No rename
 * is guessed: a version's fields are not edits of the other's, so a field gone is removed and a new one
 * added.
 */
export function compareVersions(catalogue: Catalogue, from: EventVersion, to: EventVersion): Finding[] {
  const key = to.key;
  const before: Catalogue = { ...catalogue, events: { [key]: { ...from, key, group: to.group } } };
  const after: Catalogue = { ...catalogue, events: { [key]: to } };
  return compareCatalogues(before, after, { guessRenames: false }).filter(
    (finding) => !TEXT_RULES.has(finding.rule),
  );
}

/** Event versions by event type, each list in key order. */
export function versionsByType(catalogue: Catalogue): Map<string, EventVersion[]> {
  const byType = new Map<string, EventVersion[]>();
  for (const key of Object.keys(catalogue.events).sort()) {
    const event = catalogue.events[key]!;
    const list = byType.get(event.type);
    if (list) list.push(event);
    else byType.set(event.type, [event]);
  }
  return byType;
}

/** What one event version's page says of one other version of its type: the findings, older to newer. */
export interface VersionComparison {
  key: string;
  from: string;
  to: string;
  findings: Finding[];
}

/**
 * The comparisons an event page shows, one per other version of its type (`siblings`, in key order),
 * always told from the older version to the newer. Computed once per page, for its HTML and Markdown.
 */
export function versionComparisons(
  catalogue: Catalogue,
  event: EventVersion,
  siblings: readonly EventVersion[],
): VersionComparison[] {
  const at = siblings.indexOf(event);
  return siblings
    .filter((other) => other.key !== event.key)
    .map((other) => {
      const [from, to] = siblings.indexOf(other) < at ? [other, event] : [event, other];
      return { key: other.key, from: from.key, to: to.key, findings: compareVersions(catalogue, from, to) };
    });
}
