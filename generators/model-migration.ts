/**
 * The model's migrations between versions of one event type (issue 46): plain data the loader checks
 * against both versions, compiled to JavaScript for the packages and to JSONata for the registry
 * (generators/migrate/). Part of the model (`model.ts` re-exports it).
 */
import type { SourceLocation } from './model-location.js';

/** A JSON value, as written in the catalogue (a `set` step's constant). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * One step of a migration (`upgrade:` / `downgrade:` of an event version), applied in order to a copy of
 * the payload; paths are field names from the payload's root (`['ledger', 'id']`), never through an array.
 * - `set`: the field gets `value` (a constant) or the value of `cel` (CEL over `message`, the payload the
 *   migration starts from, before any step); missing parent objects are created.
 * - `rename`: a present `from` moves to `to` (parents created); an absent one changes nothing.
 * - `drop`: each present field is removed.
 */
export type MigrationStep =
  | { kind: 'set'; field: string[]; value: JsonValue; source: SourceLocation }
  | { kind: 'set'; field: string[]; cel: string; source: SourceLocation }
  | { kind: 'rename'; from: string[]; to: string[]; source: SourceLocation }
  | { kind: 'drop'; fields: string[][]; source: SourceLocation };

/**
 * How a payload of one version becomes one of another of the same event type: an event version's
 * `upgrade` (from `from`, an earlier version, to this one) or `downgrade` (from this one back to `from`).
 */
export interface Migration {
  /** The event key whose payloads the steps read. */
  from: string;
  /** The event key the steps produce. */
  to: string;
  steps: MigrationStep[];
  /** Where `upgrade:` / `downgrade:` is written. */
  source: SourceLocation;
}
