import type {
  Deprecation,
  EventVersion,
  Field,
  FieldType,
  ScalarKind,
  SourceLocation,
  StringFormat,
} from '../model.js';

/** What every change says about where it is. */
interface ChangeBase {
  /** The event key. */
  event: string;
  /** Slug of the group holding the event (the new one, or the old one when it is gone). */
  group: string;
  /** Dot path of the field (`ledger.account.number`, `[]` marks array items); null for the event itself. */
  attr: string | null;
  /** Where a reader of the new catalogue finds it (the old catalogue's when it is gone). */
  location?: SourceLocation;
  /** Where it was in the old catalogue, when it was there. */
  oldLocation?: SourceLocation;
  /**
   * The named shape the change is in, when it reaches the event through one (the innermost shape):
   * `attr` is then the path inside that shape (null for the shape itself).
   */
  via?: { shape: string; attr: string | null };
}

/** Texts that only document. */
export type TextKind = 'title' | 'description' | 'partial-note' | 'field-description' | 'shape-description';

/** One structural difference between the two models. */
export type ModelChange = ChangeBase &
  (
    | { kind: 'event-added'; after: EventVersion; movedFrom?: string; previousVersions: string[] }
    | { kind: 'event-removed'; before: EventVersion; movedTo?: string }
    | { kind: 'openness-changed'; before: 'open' | 'closed'; after: 'open' | 'closed' }
    | { kind: 'deprecation-added'; after: Deprecation }
    | { kind: 'deprecation-removed'; before: Deprecation }
    | { kind: 'deprecation-changed'; before: Deprecation; after: Deprecation }
    | { kind: 'text-changed'; text: TextKind; before?: string; after?: string }
    | { kind: 'field-added'; field: Field }
    | { kind: 'field-removed'; field: Field }
    /** A field removed and one of the same type added in the same object: likely a rename (`attr` is the old path). */
    | { kind: 'field-renamed'; field: Field; to: Field; toAttr: string }
    | { kind: 'required-changed'; before: boolean; after: boolean }
    | { kind: 'type-changed'; before: FieldType; after: FieldType }
    | { kind: 'format-changed'; before?: StringFormat; after?: StringFormat }
    /** A data rule (`rules:`) of the version added, removed or edited, matched by name (or by expression). */
    | { kind: 'rule-changed'; before?: DataRule; after?: DataRule; reads: string[] }
    | {
        kind: 'enum-changed';
        scalar: ScalarKind;
        before?: readonly EnumValue[];
        after?: readonly EnumValue[];
      }
  );

/**
 * A data rule as the payload meets it: the event's own, or a shape's at one place, over `message`
 * (`generators/cel/over-message.ts`), with the field its error names from the payload.
 */
export interface DataRule {
  name: string;
  expr: string;
  message: string;
  /** Dot path from the payload; "" for the payload itself. */
  attr: string;
  /**
   * The fields the rule reads, from the payload (`lines[].amount`), from its checked expression
   * (`fieldsRead`): whom a change of the rule concerns, where `attr` only says where its error points.
   */
  reads: string[];
  /** For a shape's rule: the shape and the rule as the shape writes it (over `this`, attr in the shape). */
  shape?: { name: string; written: Omit<DataRule, 'shape' | 'reads'> };
}

/** An enum value as the model holds it. */
export type EnumValue = string | number;

/** A change inside a field list, before it is pinned to an event. */
type Distribute<T> = T extends unknown ? Omit<T, 'event' | 'group'> : never;
/** A change inside a field list, before it is pinned to an event (no `event` or `group` yet). */
export type RelChange = Distribute<ModelChange>;
