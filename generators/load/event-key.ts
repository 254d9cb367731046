import semverCompare from 'semver/functions/compare.js';
import semverValid from 'semver/functions/valid.js';

const EVENT_TYPE = /^[a-z0-9_][a-z0-9_-]*(\.[a-z0-9_][a-z0-9_-]*)*$/;
const V_VERSION = /^v[1-9][0-9]*$/;

/** Splits `<event_type>-<version>` (version `vN` or semver); undefined when the key is malformed. */
export function parseEventKey(key: string): { type: string; version: string } | undefined {
  // The type may itself contain `-`, and a semver pre-release may too: take the first split that works.
  for (let i = key.indexOf('-'); i > 0; i = key.indexOf('-', i + 1)) {
    const type = key.slice(0, i);
    const version = key.slice(i + 1);
    if (!EVENT_TYPE.test(type)) continue;
    // Only a version that starts with a digit can be written-out semver: testing that first spares semver
    // a thrown error for each wrong split of a type that itself contains `-`.
    if (V_VERSION.test(version) || (/^\d/.test(version) && semverValid(version) === version)) {
      return { type, version };
    }
  }
  return undefined;
}

/** An event version as semver: `v2` is `2.0.0`. */
export function versionAsSemver(version: string): string {
  const v = /^v(\d+)$/.exec(version);
  return v ? `${v[1]}.0.0` : version;
}

/** The order of two versions of one event type (`v1` < `v2`, semver order for `1.0.0`): <0, 0 or >0. */
export function compareEventVersions(a: string, b: string): number {
  return semverCompare(versionAsSemver(a), versionAsSemver(b));
}

/**
 * The interface name of an event version: `account.created-v1` -> `AccountCreatedV1`,
 * `lifecycle.support-site.sale-1.0.0` -> `LifecycleSupportSiteSale1_0_0` (numbers stay apart). It
 * lives with the key's syntax because the loader refuses two keys that would share one.
 */
export function interfaceName(key: string): string {
  const parts = key.split(/[^A-Za-z0-9]+/).filter((part) => part !== '');
  let name = '';
  parts.forEach((part, i) => {
    const previous = parts[i - 1];
    if (previous !== undefined && /^\d/.test(part) && /\d$/.test(previous)) name += '_';
    name +=
      part[0]!.toUpperCase() +
      part.slice(1).replace(/(\d)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
  });
  return /^\d/.test(name) ? `Event${name}` : name;
}
