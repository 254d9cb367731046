import { describeKey, unknownEvent } from './error-items.js';
import { readMode } from './options.js';
import type { MatcherGroup, ValidateOptions } from './types.js';

/** A matcher result, as vitest and jest expect it. */
export interface MatcherResult {
  pass: boolean;
  message(): string;
}

/**
 * The matchers for `expect.extend`: a type alias, not an interface, so that it fits the index signature
 * of vitest's and jest's `expect.extend` parameter.
 */
export type EventMatchers = {
  toBeValidEvent(received: unknown, key: string, options?: ValidateOptions): MatcherResult;
};

/**
 * Where the matchers of every group package loaded in this process find each other (each package has
 * its own copy of this file): `expect.extend` with two packages' matchers keeps only the last
 * `toBeValidEvent`, which must then know the events of both.
 */
const GROUPS_OF_MATCHERS = Symbol.for('eventry.matcher-groups');

function matcherGroups(): Map<string, MatcherGroup> {
  let groups = (globalThis as Record<symbol, unknown>)[GROUPS_OF_MATCHERS];
  if (!(groups instanceof Map)) {
    groups = new Map();
    Object.defineProperty(globalThis, GROUPS_OF_MATCHERS, { value: groups });
  }
  return groups as Map<string, MatcherGroup>;
}

/**
 * Matchers for vitest and jest (`expect.extend(matchers)`): `expect(payload).toBeValidEvent(key)`,
 * for the events of `group` and of every other group package whose matchers this process has loaded.
 */
export function createMatchers(group: MatcherGroup): EventMatchers {
  const groups = matcherGroups();
  groups.set(group.packageName, group);
  return {
    toBeValidEvent(received: unknown, key: string, options?: ValidateOptions): MatcherResult {
      const owner = [...groups.values()].find((candidate) => candidate.eventKeys.includes(key));
      const result = owner
        ? owner.validate(key, received, options)
        : unknownEvent(
            [...groups.keys()].join(' or '),
            key,
            [...groups.values()].flatMap((candidate) => candidate.eventKeys),
          );
      const what = `a valid \`${describeKey(key)}\` event (${readMode(options) ? 'tolerant' : 'strict'} mode)`;
      if (result.valid) {
        return { pass: true, message: () => `expected the payload not to be ${what}, but it is` };
      }
      const lines = result.error.errors.map(
        (item) => `  ${item.attr === '' ? '(payload)' : item.attr}: ${item.detail}`,
      );
      return {
        pass: false,
        message: () => [`expected the payload to be ${what}: ${result.error.detail}`, ...lines].join('\n'),
      };
    },
  };
}
