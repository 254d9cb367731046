import semverCompare from 'semver/functions/compare.js';
import semverValid from 'semver/functions/valid.js';
import { parseEventKey } from '../load/event-key.js';
import { MigrationJsonataError, migrationJsonata } from '../migrate/jsonata.js';
import type { Catalogue, Migration } from '../model.js';
import { contractRules, type DataContract, eventMetadata, type MigrationRule } from './data-contract.js';

/**
 * The contract of an event version in its type subject (`account.created`, issue 46): its data
 * contract's domain rules and metadata, `metadata.properties.major_version`, and the migration rules
 * from the version before it, placed as the Confluent client reads them: both the `UPGRADE` and the
 * `DOWNGRADE` rule of a pair of versions sit on the newer one (docs/decisions/0170).
 */

/** The major number of an event version, as a string (`v3` is "3", `2.1.0` is "2"). */
function majorVersion(version: string): string {
  const v = /^v(\d+)$/.exec(version);
  return String(Number(v ? v[1] : version.split('.')[0]));
}

/** Orders two versions of one type: `vN` by N, semver by semver, then as text. */
function compareEventVersions(a: string, b: string): number {
  const major = Number(majorVersion(a)) - Number(majorVersion(b));
  if (major !== 0) return major;
  if (semverValid(a) && semverValid(b)) return semverCompare(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The event keys of each type of a list of keys, oldest version first (keys that do not parse left out). */
export function keysByType(keys: Iterable<string>): Map<string, string[]> {
  const byType = new Map<string, { key: string; version: string }[]>();
  for (const key of keys) {
    const parsed = parseEventKey(key);
    if (!parsed) continue;
    const list = byType.get(parsed.type) ?? [];
    list.push({ key, version: parsed.version });
    byType.set(parsed.type, list);
  }
  const sorted = new Map<string, string[]>();
  for (const [type, list] of [...byType].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    list.sort((x, y) => compareEventVersions(x.version, y.version));
    sorted.set(
      type,
      list.map((entry) => entry.key),
    );
  }
  return sorted;
}

/** The type-subject contract of every event of a catalogue, and why a migration was left out of one. */
export function typeContracts(catalogue: Catalogue): {
  contracts: Map<string, DataContract>;
  warnings: string[];
} {
  const contracts = new Map<string, DataContract>();
  const warnings: string[] = [];
  for (const keys of keysByType(Object.keys(catalogue.events)).values()) {
    keys.forEach((key, index) => {
      const event = catalogue.events[key]!;
      const metadata = eventMetadata(catalogue, key);
      const domainRules = contractRules(catalogue, key);
      const migrationRules = rulesFrom(catalogue, key, keys[index - 1], warnings);
      const ruleSet = {
        ...(domainRules.length > 0 ? { domainRules } : {}),
        ...(migrationRules.length > 0 ? { migrationRules } : {}),
      };
      contracts.set(key, {
        ...(Object.keys(ruleSet).length > 0 ? { ruleSet } : {}),
        metadata: {
          ...metadata,
          properties: { ...metadata.properties, major_version: majorVersion(event.version) },
        },
      });
    });
  }
  return { contracts, warnings };
}

/**
 * The migration rules of `key` from `previous`, the version before it: its `upgrade` and `downgrade`
 * when `upgrade.from` is that version. The client chains rules between neighbouring versions, so an
 * upgrade from an older one has no place (a warning says so), nor has one JSONata cannot express.
 */
function rulesFrom(
  catalogue: Catalogue,
  key: string,
  previous: string | undefined,
  warnings: string[],
): MigrationRule[] {
  const event = catalogue.events[key]!;
  if (!event.upgrade) return [];
  if (event.upgrade.from !== previous) {
    warnings.push(
      `${key}: its upgrade from ${event.upgrade.from} is not served as a migration rule: the Confluent client applies rules between neighbouring versions (${previous ?? 'none'} comes before it).`,
    );
    return [];
  }
  const rules: MigrationRule[] = [];
  const add = (migration: Migration | undefined, mode: MigrationRule['mode']) => {
    if (!migration) return;
    try {
      const expr = migrationJsonata(catalogue, migration);
      const name = `${mode.toLowerCase()}_${versionOf(migration.from)}_to_${versionOf(migration.to)}`;
      rules.push({ name, kind: 'TRANSFORM', mode, type: 'JSONATA', expr });
    } catch (error) {
      if (!(error instanceof MigrationJsonataError)) throw error;
      warnings.push(`${key}: its ${mode.toLowerCase()} is not served as a migration rule: ${error.message}`);
    }
  };
  add(event.upgrade, 'UPGRADE');
  add(event.downgrade, 'DOWNGRADE');
  return rules;
}

const versionOf = (key: string): string => parseEventKey(key)?.version ?? key;
