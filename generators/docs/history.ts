import { compareCatalogues, type Finding } from '../diff/index.js';
import type { Catalogue } from '../model.js';
import type { History } from '../schema-registry/history.js';
import { catalogueFromJsonSchema } from '../schema-registry/json-schema-model.js';

/**
 * Per-field history and per-release changelogs from the registry's release history: the schema text
 * of every event at every release (generators/schema-registry/history.ts). Consecutive texts that differ are
 * read back into the model and compared with eventry's diff, so each entry is a finding, not a text
 * diff; identical texts cost nothing, which keeps a catalogue without history (or a 10k one) cheap.
 */

/** One release, as the site names it. */
export interface ReleaseInfo {
  /** `1.2.0`, or `unreleased` for a working catalogue that differs from the last release. */
  version: string;
  /** URL slug of its changelog page. */
  slug: string;
  /** Short commit, for a release. */
  commit?: string;
  added: string[];
  removed: string[];
  /** Findings of events present before and after, by event key. */
  changed: Map<string, Finding[]>;
}

/** What happened to one field of one event in one release. */
export interface FieldEvent {
  release: string;
  slug: string;
  what: string;
}

/** The site's view of the history. */
export interface SiteHistory {
  releases: ReleaseInfo[];
  /** By event key, then by field dot path (`''` for the event itself). */
  fields: Map<string, Map<string, FieldEvent[]>>;
}

/** Reads a history into releases and per-field events. */
export function siteHistory(history: History): SiteHistory {
  const releases: ReleaseInfo[] = [];
  const fields = new Map<string, Map<string, FieldEvent[]>>();
  const note = (key: string, attr: string, event: FieldEvent) => {
    let byField = fields.get(key);
    if (!byField) {
      byField = new Map();
      fields.set(key, byField);
    }
    const list = byField.get(attr);
    if (list) list.push(event);
    else byField.set(attr, [event]);
  };
  const current = history.current;
  let previous: Map<string, string> | undefined;
  const points = history.points;
  for (let i = 0; i < points.length; i++) {
    const point = points[i]!;
    const working = point.commit === undefined;
    // The working catalogue is a release of its own only when it differs from the last release.
    if (working && previous && sameTexts(previous, point.schemas)) break;
    // A working catalogue whose recorded version is new is the release `eventry version` just made,
    // not yet committed: it is shown under that version, as it will be once committed.
    const pending = working && !points.some((other) => other.commit && other.version === point.version);
    const version = working && !pending ? 'unreleased' : point.version;
    const release: ReleaseInfo = {
      version,
      slug: version,
      ...(point.commit ? { commit: point.commit.slice(0, 7) } : {}),
      added: [],
      removed: [],
      changed: new Map(),
    };
    for (const [key, text] of point.schemas) {
      const before = previous?.get(key);
      if (before === undefined) {
        release.added.push(key);
        note(key, '', { release: version, slug: release.slug, what: 'event added' });
        continue;
      }
      if (before === text) continue;
      const findings = compareTexts(current, key, before, text);
      if (findings.length === 0) continue;
      release.changed.set(key, findings);
      for (const finding of findings) {
        note(key, finding.attr ?? '', { release: version, slug: release.slug, what: finding.detail });
      }
    }
    if (previous) for (const key of previous.keys()) if (!point.schemas.has(key)) release.removed.push(key);
    releases.push(release);
    previous = point.schemas;
  }
  return { releases, fields };
}

function sameTexts(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, text] of a) if (b.get(key) !== text) return false;
  return true;
}

/** The findings between two schema texts of one event, read back into one-event catalogues. */
function compareTexts(current: Catalogue, key: string, before: string, after: string): Finding[] {
  const event = current.events[key];
  const dash = key.lastIndexOf('-');
  const identity = {
    key,
    type: event?.type ?? key.slice(0, dash),
    version: event?.version ?? key.slice(dash + 1),
    group: event?.group ?? '',
  };
  const old = catalogueFromJsonSchema(before, identity);
  const now = catalogueFromJsonSchema(after, identity);
  if (!old.ok || !now.ok) {
    return [
      {
        event: key,
        group: identity.group,
        attr: null,
        rule: 'schema-changed',
        severity: 'non-breaking',
        breaks: 'none',
        detail: 'The schema changed (this release cannot be compared field by field).',
      },
    ];
  }
  return compareCatalogues(old.catalogue, now.catalogue);
}
