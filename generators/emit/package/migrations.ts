import semver from 'semver';
import { migrationsCode } from '../../migrate/compile-js.js';
import type { Catalogue, Group, Migration } from '../../model.js';
import type { OutputFile } from '../context.js';
import { render } from './templates.js';

/**
 * What a group package knows of its migrations (issue 46): the versions of each of its event types
 * that has more than one (oldest first, for `upcast`'s default target and the `.d.ts`), and the
 * upgrades and downgrades its events declare. Only a group with migrations gets `migrations.js`; the
 * others get `upcast` / `downcast` from the run time over the versions alone (decision 0165).
 */
export interface GroupMigrations {
  /** The keys of each event type of the group that has several versions, oldest first. */
  versions: string[][];
  /** Every `upgrade` of the group's events, in group order. */
  upgrades: Migration[];
  /** Every `downgrade` of the group's events, in group order. */
  downgrades: Migration[];
}

/** The migrations of a group's events and the versions of its event types. */
export function groupMigrations(model: Catalogue, group: Group): GroupMigrations {
  const byType = new Map<string, string[]>();
  const upgrades: Migration[] = [];
  const downgrades: Migration[] = [];
  for (const key of group.events) {
    const event = model.events[key]!;
    const list = byType.get(event.type);
    if (list) list.push(key);
    else byType.set(event.type, [key]);
    if (event.upgrade) upgrades.push(event.upgrade);
    if (event.downgrade) downgrades.push(event.downgrade);
  }
  const versions = [...byType.values()]
    .filter((keys) => keys.length > 1)
    .map((keys) => [...keys].sort((a, b) => compareVersions(model, a, b)));
  return { versions, upgrades, downgrades };
}

/** Whether the group's events declare any migration. */
export function hasMigrations(migrations: GroupMigrations): boolean {
  return migrations.upgrades.length + migrations.downgrades.length > 0;
}

/** Orders two versions of one event type: `v2` before `v10`, semver by precedence, `vN` as `N.0.0`. */
function compareVersions(model: Catalogue, a: string, b: string): number {
  return semver.compare(asSemver(model.events[a]!.version), asSemver(model.events[b]!.version));
}

function asSemver(version: string): string {
  const v = /^v(\d+)$/.exec(version);
  return v ? `${v[1]}.0.0` : version;
}

/**
 * `migrations.js` of a group with migrations: the compiled steps (generators/migrate/compile-js.ts) as
 * `up` and `down`, each key's `[the key at the other end, function]`; plain code, importing nothing.
 * `verified` says on how many payloads (and which seed) the build verified each.
 */
export function migrationsFile(
  model: Catalogue,
  group: Group,
  note: string,
  migrations: GroupMigrations,
  verified: { runs: number; seed: number },
): OutputFile {
  const all = [...migrations.upgrades, ...migrations.downgrades];
  const { declarations, bodies } = migrationsCode(model, all);
  const up = migrations.upgrades.map((migration, i) => ({
    key: migration.to,
    other: migration.from,
    code: bodies[i]!,
  }));
  const down = migrations.downgrades.map((migration, i) => ({
    key: migration.from,
    other: migration.to,
    code: bodies[migrations.upgrades.length + i]!,
  }));
  return {
    path: `${group.slug}/migrations.js`,
    contents: render('migrations.js', { note, declarations, up, down, ...verified }),
  };
}

/** The `.d.ts` data of `upcast` / `downcast`: each event's versions (a union of keys) and its newest. */
export function versionTypes(
  group: Group,
  migrations: GroupMigrations,
): { key: string; versions: string[]; newest: string }[] {
  const typeOf = new Map<string, string[]>();
  for (const list of migrations.versions) for (const key of list) typeOf.set(key, list);
  return group.events.map((key) => {
    const versions = typeOf.get(key) ?? [key];
    return { key, versions, newest: versions[versions.length - 1]! };
  });
}
