import { type Field, type FieldType, type SourceLocation, typeNotation } from '../model.js';
import type { RuleInfo } from '../shared/rule-registry.js';
import type { EnumValue, ModelChange } from './diff.js';

export type { RetiredRule } from '../shared/rule-registry.js';

/** How much a change matters to anyone relying on the current event version. */
export type Severity = 'breaking' | 'non-breaking' | 'docs';

/** Whom a change breaks: the code that emits the payload, the code that reads it, both, or nobody. */
export type Breaks = 'producers' | 'consumers' | 'both' | 'none';

/** The kinds of structural change stage one reports. */
export type ChangeKind = ModelChange['kind'];

/** The structural change of one kind, as a rule for that kind receives it. */
export type ChangeOf<K extends ChangeKind> = Extract<ModelChange, { kind: K }>;

/**
 * Stage two of the diff: one classification of one kind of change, one file under rules/, listed once
 * under its kind in rules/index.ts. Id, severity, description and hint are the rule kernel's
 * (shared/rule-registry.ts, which lint rules share); a retired id goes to RETIRED_RULE_IDS.
 */
export interface Rule<K extends ChangeKind = ChangeKind> extends RuleInfo<Severity> {
  breaks: Breaks;
  /** The finding's detail when the change is one this rule reports, else undefined. */
  check(change: ChangeOf<K>): string | undefined;
}

/** A diff rule's fixture: the catalogue before the change and after it. */
export type DiffFixtureSide = 'before' | 'after';

/** A classified change: what a report, the gate and the version bump work from. */
export interface Finding {
  event: string;
  group: string;
  attr: string | null;
  /**
   * The named shape the change is in when it reaches the event through one: `attr` inside the shape
   * and the detail said of the shape, the same for every event it reaches (reports list it once).
   */
  via?: { shape: string; attr: string | null; detail: string };
  /**
   * For a data rule's change: the fields the rule reads (`lines[].amount`), on either side. A consumer
   * is concerned by the change when it reads one of them, whatever field `attr` names.
   */
  reads?: string[];
  rule: string;
  severity: Severity;
  breaks: Breaks;
  /** Human-readable; wording may change, so no logic may be built on it. */
  detail: string;
  /** Where it is in the new catalogue (the old one's group when it is gone). */
  location?: SourceLocation;
  /** Where it was in the old catalogue. */
  oldLocation?: SourceLocation;
}

/** Severities from the most to the least serious. */
export const SEVERITIES: readonly Severity[] = ['breaking', 'non-breaking', 'docs'];

/** `code` span for markdown-ish texts (the formatters escape further as their format needs). */
export const code = (text: string): string => `\`${text}\``;

/** `field \`a.b\``, `field \`a.b\` via shape \`Ledger\``, or `event \`key\`` for event-level changes. */
export function subject(change: ModelChange): string {
  if (change.attr === null) return `event ${code(change.event)}`;
  return change.via
    ? `field ${code(change.attr)} via shape ${code(change.via.shape)}`
    : `field ${code(change.attr)}`;
}

/** ` Note: …` for a deprecation that carries one, '' otherwise. */
export function deprecationNote(deprecation: { note?: string }): string {
  return deprecation.note ? ` Note: ${deprecation.note.trim().replace(/\.?$/, '.')}` : '';
}

/** Upper-cases the first letter, for a subject at the start of a sentence. */
export const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** `\`[string]\`, required` */
export function fieldSummary(field: Field): string {
  return `${code(typeNotation(field.type))}, ${field.required ? 'required' : 'optional'}`;
}

/** `\`string\`` with its format and enum, for type changes. */
export function typeSummary(type: FieldType): string {
  return code(typeNotation(type));
}

/** `\`a\`, \`b\`` */
export function valueList(values: readonly EnumValue[]): string {
  return values.map((value) => code(String(value))).join(', ');
}

/** Values of `a` missing from `b`. */
export function missing(a: readonly EnumValue[] = [], b: readonly EnumValue[] = []): EnumValue[] {
  const set = new Set(b);
  return a.filter((value) => !set.has(value));
}

/** The key of the next payload version: `account.created-v2`, `lifecycle.sale-2.0.0`. */
export function nextVersionKey(type: string, version: string, taken: (key: string) => boolean): string {
  const v = /^v(\d+)$/.exec(version);
  let major = v ? Number(v[1]) : Number(version.split('.')[0]);
  for (;;) {
    major += 1;
    const key = v ? `${type}-v${major}` : `${type}-${major}.0.0`;
    if (!taken(key)) return key;
  }
}
