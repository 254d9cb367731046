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
    if (V_VERSION.test(version) || (semverValid(version) === version && !version.startsWith('v'))) {
      return { type, version };
    }
  }
  return undefined;
}
