import semverInc from 'semver/functions/inc.js';
import { type Catalogue, groupPackageName } from '../model.js';
import type { Finding, Severity } from './rule.js';

/** How a group package's version moves. */
export type Bump = 'major' | 'minor' | 'patch' | 'none';

/** The version move of one group package, as the JSON report lists it. */
export interface PackageBump {
  /** npm name, `@scope/slug`. */
  name: string;
  slug: string;
  /** The version before; null for a package the old catalogue did not have. */
  from: string | null;
  /** The version after; null for a package the new catalogue no longer has. */
  to: string | null;
  bump: Bump;
}

/** The version the build gives a package that records none. */
const DEFAULT_PACKAGE_VERSION = '1.0.0';

const ORDER: readonly Bump[] = ['none', 'patch', 'minor', 'major'];
const BY_SEVERITY: Record<Severity, Bump> = { breaking: 'major', 'non-breaking': 'minor', docs: 'patch' };

/** The larger of two bumps. */
export function maxBump(a: Bump, b: Bump): Bump {
  return ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b;
}

/** Major for any breaking finding, minor for additions, patch for docs only, none for nothing. */
export function bumpFor(findings: readonly Finding[]): Bump {
  return findings.reduce<Bump>((bump, finding) => maxBump(bump, BY_SEVERITY[finding.severity]), 'none');
}

/** `version` moved by `bump` (semver rules: `1.4.2` major is `2.0.0`). */
export function applyBump(version: string, bump: Bump): string {
  if (bump === 'none') return version;
  const next = semverInc(version, bump);
  if (!next) throw new Error(`not a semver version: ${version}`);
  return next;
}

/**
 * The bump of every group package between two catalogues, by slug. `versions` are the versions the old
 * side records per package (missing ones are the build's default).
 */
export function packageBumps(
  findings: readonly Finding[],
  before: Catalogue,
  after: Catalogue,
  versions: Readonly<Record<string, string>>,
): PackageBump[] {
  const slugs = [...new Set([...before.groups, ...after.groups].map((group) => group.slug))].sort();
  return slugs.map((slug) => {
    const existed = before.groups.some((group) => group.slug === slug);
    const exists = after.groups.some((group) => group.slug === slug);
    const name = groupPackageName(exists ? after : before, { slug });
    if (!existed) return { name, slug, from: null, to: DEFAULT_PACKAGE_VERSION, bump: 'minor' };
    const from = versions[slug] ?? DEFAULT_PACKAGE_VERSION;
    if (!exists) return { name, slug, from, to: null, bump: 'major' };
    const bump = bumpFor(findings.filter((finding) => finding.group === slug));
    return { name, slug, from, to: applyBump(from, bump), bump };
  });
}
