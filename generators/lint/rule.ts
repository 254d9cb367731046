import type { Catalogue, LintSeverity, SourceLocation } from '../model.js';
import type { RetiredRule, RuleInfo } from '../shared/rule-registry.js';
import type { CatalogueIndex } from './catalogue-index.js';

export type { LintSeverity } from '../model.js';

/** A severity a finding can carry (a rule set `off` reports nothing). */
export type FindingSeverity = Exclude<LintSeverity, 'off'>;

/** What a rule reports: one thing wrong at one place of the catalogue source. */
export interface LintReport {
  /** Human-readable; wording may change, so no logic (nor the baseline) may be built on it. */
  message: string;
  location: SourceLocation;
  /**
   * What the finding is about, stable across edits that move lines: `event account.created-v1 field
   * user_email`, `shape Caller`. The baseline records rule + subject.
   */
  subject: string;
}

/**
 * A naming rule's pattern: `test` finds it in a name (as `RegExp.test` does), in time linear in the
 * name whatever the pattern (RE2 semantics, see docs/decisions/0097-lint-patterns-in-linear-time.md).
 */
export interface NamePattern {
  /** The pattern as written. */
  readonly source: string;
  test(text: string): boolean;
}

/**
 * What the group packages' test data found of a data rule (issue 45): `fake` kept no payload with it, or
 * `invalid` broke it alone in none. The lint cannot run the test data itself (it is built by the
 * emitters, a layer below it does not reach): the caller that can passes `LintOptions.ruleData`.
 */
export interface RuleDataVerdict {
  event: string;
  /** The rule's name for an event's own, `Shape.name` for a shape's. */
  rule: string;
  verdict: 'unsatisfiable' | 'unbreakable';
  detail: string;
}

/** Runs the test data over a catalogue's rules (`probeRuleData` of generators/emit/package/rule-probe.ts). */
export type RuleDataProbe = (catalogue: Catalogue) => readonly RuleDataVerdict[];

/** What every rule reads: the model, an index of it built once, and the rule's configured pattern. */
export interface LintContext {
  catalogue: Catalogue;
  index: CatalogueIndex;
  /** What the test data found of the data rules (run once, on first ask); empty without a probe. */
  ruleData?(): readonly RuleDataVerdict[];
  /** The rule's `pattern` (eventry.config.yaml, else its default); undefined when it has neither. */
  pattern(rule: LintRule): NamePattern | undefined;
}

/**
 * One lint rule: one file under rules/, listed once in rules/index.ts. Id, severity (in the
 * `recommended` preset), description and hint are the rule kernel's (shared/rule-registry.ts, which diff
 * rules share); a retired id goes to RETIRED_LINT_RULE_IDS.
 */
export interface LintRule extends RuleInfo<LintSeverity> {
  /** The default of a naming rule's configurable `pattern`. */
  pattern?: string;
  check(ctx: LintContext): LintReport[];
}

/** A rule id taken out of use, and why: never given to another rule. */
export type RetiredLintRule = RetiredRule;

/** A lint rule's fixture: a catalogue it reports on and one it passes. */
export type LintFixtureSide = 'bad' | 'good';

/** A reported finding, with its rule's id, effective severity and hint. */
export interface LintFinding extends LintReport {
  rule: string;
  severity: FindingSeverity;
  hint: string;
}

/** Severities from the most to the least serious. */
export const FINDING_SEVERITIES: readonly FindingSeverity[] = ['error', 'warning', 'info'];

/** `code` span, as the catalogue's problems write names. */
export const code = (text: string): string => `\`${text}\``;

/** `file:line:column`. */
export const at = (location: SourceLocation): string =>
  `${location.file}:${location.line}:${location.column}`;

/** `a` or `an` + noun, for messages. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
