// Generated from generators/schema/source/{catalogue-file,config}.schema.json by `npm run gen:schema-types`.
// Do not edit: change the schema and regenerate (test/schema/source-types.test.ts fails when stale).
// biome-ignore-all format: formatted by json-schema-to-typescript (prettier), which the freshness test compares.

/**
 * string, integer, number, boolean, object (free object), [T] (array of T) or a named shape.
 */
export type TypeName = ('string' | 'integer' | 'number' | 'boolean' | 'object') | string | [TypeName];
/**
 * An event key or a named shape.
 */
export type Reference = string;
/**
 * <event_type>-<version>; version is vN or semver, e.g. account.created-v1, lifecycle.support-site.sale-1.0.0
 */
export type EventKey = string;
/**
 * A team defined in teams.yaml (kebab-case).
 */
export type TeamId = string;
/**
 * Data rules: CEL conditions every payload must keep (over `message` for an event, `this` for a shape).
 */
export type Rules = Rule[];
/**
 * A field, as a dot path from the payload's root: ledger.id.
 */
export type FieldPath = string;
/**
 * Applied in order to a copy of the payload.
 */
export type MigrationSteps = MigrationStep[];
export type ShapeName = string;

/**
 * A group of events (group + events) and/or named shapes (shapes).
 */
export interface EventryCatalogueFile {
  group?: Group;
  /**
   * Event payload versions keyed <event_type>-<version>.
   */
  events?: {
    [k: string]: Event;
  };
  /**
   * Named shapes keyed by PascalCase name.
   */
  shapes?: {
    [k: string]: Shape;
  };
}
export interface Group {
  /**
   * Short kebab-case name; the group's npm package is <scope>/<slug>.
   */
  slug: string;
  title: string;
  description?: string;
  /**
   * The team that owns the group: a team of teams.yaml.
   */
  owner?: string;
}
export interface Event {
  title?: string;
  description?: string;
  fields?: Fields;
  same_as?: Reference;
  extends?: Reference;
  partial?: string;
  deprecated?: Deprecated;
  /**
   * The services that emit this event version, and their teams.
   */
  producers?: Producer[];
  rules?: Rules;
  upgrade?: Upgrade;
  downgrade?: Downgrade;
}
export interface Fields {
  [k: string]: Field;
}
export interface Field {
  type: TypeName;
  required?: boolean;
  description?: string;
  format?: 'date' | 'date-time';
  /**
   * @minItems 1
   */
  enum?: [string | number | number, ...(string | number | number)[]];
  /**
   * What the data is: public, internal, personal (identifies a person: e-mail, phone, name, address) or sensitive (personal data that needs extra care: bank details, health, birth date).
   */
  classification?: 'public' | 'internal' | 'personal' | 'sensitive';
}
export interface Deprecated {
  /**
   * Catalogue version or ISO date.
   */
  since: string;
  replaced_by?: EventKey;
  note?: string;
}
export interface Producer {
  /**
   * The service that emits the event.
   */
  service: string;
  team: TeamId;
}
export interface Rule {
  /**
   * snake_case, unique in the event or shape.
   */
  name: string;
  /**
   * The CEL condition, e.g. message.amount > 0.0.
   */
  expr: string;
  /**
   * What the error says when a payload breaks the rule.
   */
  message: string;
  /**
   * The field the error names (a dot path); default: the payload.
   */
  attr?: string;
}
/**
 * How a payload of an earlier version of this event type becomes one of this version.
 */
export interface Upgrade {
  from: EventKey;
  steps: MigrationSteps;
}
/**
 * One step: `set`, `rename` or `drop`.
 */
export interface MigrationStep {
  /**
   * Gives `field` a constant `value` or the value of the CEL expression `cel` over `message` (the payload before any step).
   */
  set?: {
    field: FieldPath;
    /**
     * A constant of the field's type.
     */
    value?: {
      [k: string]: unknown;
    };
    /**
     * CEL over `message`, e.g. 'migrated ' + message.id.
     */
    cel?: string;
  };
  /**
   * Moves the value of `from` (when present) to `to`.
   */
  rename?: {
    from: FieldPath;
    to: FieldPath;
  };
  /**
   * The fields to remove (a list of dot paths).
   *
   * @minItems 1
   */
  drop?: [FieldPath, ...FieldPath[]];
}
/**
 * How a payload of this version becomes one of the version `upgrade.from` names (only beside `upgrade`).
 */
export interface Downgrade {
  steps: MigrationSteps;
}
export interface Shape {
  description?: string;
  extends?: ShapeName;
  fields?: Fields;
  rules?: Rules;
}

export type Level =
  'NONE' | 'BACKWARD' | 'BACKWARD_TRANSITIVE' | 'FORWARD' | 'FORWARD_TRANSITIVE' | 'FULL' | 'FULL_TRANSITIVE';
export type LintSeverity = 'error' | 'warning' | 'info' | 'off';

export interface EventryCatalogueConfiguration {
  title: string;
  /**
   * Version of the catalogue as a whole (semver).
   */
  version: string;
  /**
   * npm scope of the group packages, e.g. @acme-events.
   */
  scope: string;
  description?: string;
  /**
   * Schema registry compatibility (eventry serve, register, diff --level): a level for the whole catalogue, overridable per group slug or event key.
   */
  compatibility?: {
    level?: Level;
    /**
     * JSON Schema policy: LENIENT accepts adding or removing a property of an open content model.
     */
    policy?: 'STRICT' | 'LENIENT';
    groups?: {
      [k: string]: Level;
    };
    events?: {
      [k: string]: Level;
    };
  };
  /**
   * eventry lint: a preset, per-rule severity (and pattern for the naming rules), ignores by catalogue path, the baseline file.
   */
  lint?: {
    preset?: 'recommended' | 'strict';
    rules?: {
      [k: string]:
        | LintSeverity
        | {
            severity?: LintSeverity;
            pattern?: string;
          };
    };
    ignore?: {
      /**
       * Glob of catalogue file paths, e.g. groups/legacy-*.yaml.
       */
      path: string;
      /**
       * Only these rules (default: all).
       */
      rules?: string[];
      reason: string;
    }[];
    /**
     * Baseline file, relative to the catalogue (default lint-baseline.json).
     */
    baseline?: string;
  };
  /**
   * How `eventry check` weighs consumer declarations (consumers/<team>.yaml).
   */
  consumers?: {
    /**
     * A breaking change no declared consumer reads: block it (default), or only warn.
     */
    unread_breaking?: 'block' | 'warn';
  };
}
