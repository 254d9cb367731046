import semver from 'semver';
import type { NpmRegistryPackage, PublishedVersion } from './npm-registry-client.js';
import type { PackedPackage } from './pack.js';

/** What the registry says about one local package's name and version. */
export interface RegistryState {
  /** The package on the registry; undefined when the name has never been published there. */
  package?: NpmRegistryPackage;
  /** The registry's record of the local version, when that version is published. */
  published?: PublishedVersion;
  /**
   * Files whose content differs from the published tarball, checked only when the integrities differ
   * (undefined: not checked). `[]`: the same files, packed into different bytes.
   */
  differingFiles?: string[];
}

/** One line of the plan. */
export type PlanEntry =
  | { action: 'publish'; local: PackedPackage; tag: string }
  | { action: 'up-to-date'; local: PackedPackage; published: PublishedVersion }
  | { action: 'conflict'; local: PackedPackage; published: PublishedVersion; differingFiles?: string[] };

/** The dist-tag npm 11 needs: `latest` unless a higher version is already latest (then `latest-<major>`). */
export function distTagFor(version: string, registryPackage: NpmRegistryPackage | undefined): string {
  const latest = registryPackage?.distTags.latest;
  if (semver.prerelease(version)) return 'next';
  if (!latest || !semver.valid(latest) || semver.gt(version, latest)) return 'latest';
  return `latest-${semver.major(version)}`;
}

/**
 * Decides, for one package, whether to publish it. A version is immutable on every npm registry, so a
 * published version is either the same content (nothing to do) or a conflict (the catalogue changed
 * without `eventry version`): never something to overwrite.
 */
export function planPackage(local: PackedPackage, state: RegistryState): PlanEntry {
  const { published } = state;
  if (!published) return { action: 'publish', local, tag: distTagFor(local.version, state.package) };
  if (published.integrity === local.integrity) return { action: 'up-to-date', local, published };
  if (state.differingFiles && state.differingFiles.length === 0)
    return { action: 'up-to-date', local, published };
  return {
    action: 'conflict',
    local,
    published,
    ...(state.differingFiles ? { differingFiles: state.differingFiles } : {}),
  };
}

/** Whether an integrity mismatch needs the published tarball fetched to tell repacking from a change. */
export function needsContentCheck(local: PackedPackage, state: RegistryState): boolean {
  return (
    state.published !== undefined && state.published.integrity !== local.integrity && !state.differingFiles
  );
}

/** Plans every package: the run time package first (the groups depend on it), then the rest in name order. */
export function planPublish(entries: { local: PackedPackage; state: RegistryState }[]): PlanEntry[] {
  return entries
    .map(({ local, state }) => planPackage(local, state))
    .sort(
      (a, b) =>
        Number(b.local.runtime === true) - Number(a.local.runtime === true) ||
        (a.local.name < b.local.name ? -1 : a.local.name > b.local.name ? 1 : 0),
    );
}

/** What a reader needs to fix a conflict. */
export function describeConflict(entry: Extract<PlanEntry, { action: 'conflict' }>): string {
  const { local, published } = entry;
  const files = entry.differingFiles?.length ? ` (${entry.differingFiles.join(', ')})` : '';
  const hashes =
    published.sourceHash && local.sourceHash && published.sourceHash !== local.sourceHash
      ? `; it was built from group content ${published.sourceHash.slice(0, 12)}, this one from ${local.sourceHash.slice(0, 12)}`
      : '';
  const fix = local.runtime
    ? 'raise RUNTIME_VERSION in the toolkit (generators/emit/package/runtime-package.ts) for the changed run time'
    : 'run `eventry version` to give the changed package a new version';
  return (
    `${local.name}@${local.version} is already published with different content${files}${hashes}. ` +
    `A published version never changes: ${fix}, then publish again.`
  );
}
