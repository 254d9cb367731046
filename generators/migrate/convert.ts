import type { Catalogue, Migration } from '../model.js';
import { migrationFunction } from './compile-js.js';
import { type MigrationEdge, migrationPath, upcastTarget } from './path.js';

// A payload converted from one event version to another by the catalogue's migrations, chained, for the
// toolkit's own surfaces (the CLI's `upcast`, the MCP tool): the same compiled JavaScript the packages'
// `upcast` runs, made into functions once per conversion.

/** A conversion ready to run: the keys it passes through, and the function that runs every step. */
export interface Converter {
  from: string;
  to: string;
  /** `from`, each version passed through, `to`. */
  through: string[];
  /** The payload converted; never mutates it. Throws `NotAnObject` for a payload that is not an object, `MigrationFailed` when a step's expression fails on it. */
  convert(payload: unknown): unknown;
}

/** Why no converter: a key the catalogue lacks, or no chain of migrations between the two versions. */
export type ConverterProblem =
  | { kind: 'unknown-event'; key: string }
  | { kind: 'no-path'; from: string; to?: string };

/** A step of a conversion that failed on one payload (a CEL expression that cannot evaluate on it). */
export class MigrationFailed extends Error {
  constructor(
    readonly migration: Migration,
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`the migration from ${migration.from} to ${migration.to} failed on this payload: ${why}`, {
      cause,
    });
  }
}

/** A payload that is not a JSON object: no event payload, so nothing a migration converts. */
export class NotAnObject extends Error {
  constructor() {
    super('the payload is not a JSON object');
  }
}

/**
 * The converter from `from` to `to` (by default the newest version `from` reaches by upgrades): every
 * migration on the way compiled once. Without a `to`, a version nothing upgrades from has no converter.
 */
export function converterFor(
  model: Catalogue,
  from: string,
  to?: string,
): { ok: true; converter: Converter } | { ok: false; problem: ConverterProblem } {
  for (const key of [from, to]) {
    if (key !== undefined && !Object.hasOwn(model.events, key))
      return { ok: false, problem: { kind: 'unknown-event', key } };
  }
  const target = to ?? upcastTarget(model, from);
  const path = target === undefined ? undefined : migrationPath(model, from, target);
  if (target === undefined || path === undefined)
    return { ok: false, problem: { kind: 'no-path', from, ...(to === undefined ? {} : { to }) } };
  return { ok: true, converter: compiled(model, from, target, path) };
}

function compiled(model: Catalogue, from: string, to: string, path: MigrationEdge[]): Converter {
  const steps = path.map(({ migration }) => ({ migration, run: migrationFunction(model, migration) }));
  return {
    from,
    to,
    through: [from, ...path.map(({ migration }) => migration.to)],
    convert(payload) {
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new NotAnObject();
      // Each compiled migration copies its input first: the caller's payload is never touched.
      let next: unknown = steps.length === 0 ? structuredClone(payload) : payload;
      for (const { migration, run } of steps) {
        try {
          next = run(next);
        } catch (error) {
          throw new MigrationFailed(migration, error);
        }
      }
      return next;
    },
  };
}
