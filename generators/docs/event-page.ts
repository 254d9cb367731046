import type { Finding } from '../diff/index.js';
import { interfaceName } from '../load/event-key.js';
import type { Catalogue, EventVersion } from '../model.js';
import { filledColumns } from './columns.js';
import { type FieldRow, fieldColumns } from './fields.js';
import type { FieldEvent, SiteHistory } from './history.js';
import { importLine } from './markdown.js';
import { eventMigrations, migrationsInto } from './migrations.js';
import { type BuiltPackage, interfaceText } from './package-files.js';
import { eventRules } from './rules.js';
import { eventGraph, eventOwnership, fieldReaders } from './teams.js';
import type { VersionComparison } from './versions.js';

/** What an event version's page shows: the data its template renders. */
export function eventPageData(
  catalogue: Catalogue,
  event: EventVersion,
  rows: FieldRow[],
  pkg: BuiltPackage,
  examples: { minimal: unknown; full: unknown },
  comparisons: readonly VersionComparison[],
  siblings: EventVersion[],
  history: SiteHistory,
): object {
  const group = catalogue.groups.find((g) => g.slug === event.group)!;
  const fieldHistory = history.fields.get(event.key) ?? new Map<string, FieldEvent[]>();
  const added = (fieldHistory.get('') ?? []).filter((entry) => entry.what === 'event added').slice(0, 1);
  const ownership = eventOwnership(catalogue, event);
  const graph = eventGraph(event.key, ownership);
  const tableRows = rows.map((row) => ({
    ...row,
    history: fieldHistory.get(row.path) ?? added,
    readers: fieldReaders(ownership.readers, row.path),
  }));
  return {
    key: event.key,
    type: event.type,
    version: event.version,
    title: event.title,
    description: event.description,
    deprecated: event.deprecated,
    partial: event.partial,
    group: { slug: group.slug, title: group.title },
    packageName: pkg.name,
    hasTesting: pkg.testing !== undefined,
    interfaceName: interfaceName(event.key),
    importLine: importLine(catalogue, event),
    siblings:
      siblings.length > 1
        ? siblings.map((other) => ({
            key: other.key,
            version: other.version,
            current: other.key === event.key,
            deprecated: other.deprecated !== undefined,
          }))
        : [],
    typescript: interfaceText(pkg, event.key),
    examples,
    // A field without entries of its own has been there since the event was added.
    rows: tableRows,
    columns: {
      ...fieldColumns(tableRows),
      ...filledColumns(tableRows, {
        history: (row) => row.history.length > 0,
        readers: (row) => row.readers.length > 0,
      }),
    },
    rules: eventRules(catalogue, event),
    migrations: eventMigrations(event),
    // The playground's "Convert from": each version a migration leads from to this one.
    conversions: migrationsInto(catalogue, event.key).map((migration) => ({
      from: migration.from,
      version: catalogue.events[migration.from]?.version ?? migration.from,
    })),
    ownership,
    ...(graph ? { graph } : {}),
    // Always told from the older version to the newer, whichever page it is on.
    versions: comparisons.map((comparison) => ({
      ...comparison,
      findings: findingsData(comparison.findings),
    })),
    history: [...fieldHistory.values()].flat(),
  };
}

/** Findings as the pages list them: rule, severity, field and detail. */
export function findingsData(findings: readonly Finding[]): object[] {
  return findings.map((finding) => ({
    rule: finding.rule,
    severity: finding.severity,
    attr: finding.attr,
    detail: finding.detail,
  }));
}
