/**
 * The one kernel of eventry's rule sets, the diff's and the lint's: what every rule says of itself (id,
 * severity, description, hint), where its examples are (fixtures), and the registry that refuses a set
 * with a malformed, repeated or retired id. Each set keeps its own check: a diff rule reads one change
 * between two models, a lint rule one model (see docs/decisions/0120-one-rule-kernel.md).
 */

/** Kebab-case, as every rule id is written. */
const RULE_ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** What every rule says of itself, whatever it checks. */
export interface RuleInfo<Severity extends string = string> {
  /** Kebab-case, stable, never reused: a rule taken out goes to its set's retired ids. */
  readonly id: string;
  /** The rule's severity (the diff's `breaking`..., the lint's default `error`...). */
  readonly severity: Severity;
  /** One line: what the rule reports and why it matters. */
  readonly description: string;
  /** What to do about a finding, in general (a finding's message says the specifics). */
  readonly hint: string;
}

/** A rule id taken out of use, and why: never given to another rule, and named when a setting uses it. */
export interface RetiredRule {
  readonly id: string;
  readonly reason: string;
}

/** The examples a rule is shown and tested on: one catalogue folder per side, relative to the repository. */
export interface RuleFixtures<Side extends string> {
  /** The rule's fixture folder: `test/fixtures/diff/field-removed`. */
  readonly folder: string;
  /** Each side's catalogue: `{ before: '…/before', after: '…/after' }`. */
  readonly sides: Readonly<Record<Side, string>>;
}

/** What a rule set is: its name in messages and where its examples live. */
export interface RuleSetSpec<Side extends string> {
  /** `diff`, `lint`. */
  readonly name: string;
  /** The folder, relative to the repository, holding one fixture folder per rule id. */
  readonly fixtureRoot: string;
  /** The sides of every fixture, in order: `before`/`after`, `bad`/`good`. */
  readonly sides: readonly Side[];
}

/** A rule set, checked: its rules in report order, by id, its retired ids, and each rule's examples. */
export interface RuleRegistry<R extends RuleInfo, Side extends string = string> {
  readonly name: string;
  readonly rules: readonly R[];
  readonly byId: ReadonlyMap<string, R>;
  readonly retired: readonly RetiredRule[];
  /** The retired entry for an id, when the id was once a rule of this set. */
  retiredRule(id: string): RetiredRule | undefined;
  /** Where a rule's examples are (by convention `<fixtureRoot>/<id>/<side>`). */
  fixtures(id: string): RuleFixtures<Side>;
}

/** A one-line sentence that starts with a capital and ends with a full stop. */
const SENTENCE = /^[A-Z][^\n]{9,}\.$/;

/** What is wrong with a rule set: a repeated, malformed or retired id, an undescribed rule. */
export function ruleSetProblems(rules: readonly RuleInfo[], retired: readonly RetiredRule[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const rule of rules) {
    if (!RULE_ID.test(rule.id)) problems.push(`rule id \`${rule.id}\` is not kebab-case`);
    if (seen.has(rule.id)) problems.push(`rule id \`${rule.id}\` is used twice`);
    seen.add(rule.id);
    if (!SENTENCE.test(rule.description)) problems.push(`rule \`${rule.id}\` has no one-line description`);
    if (!SENTENCE.test(rule.hint)) problems.push(`rule \`${rule.id}\` has no one-line hint`);
  }
  const gone = new Set<string>();
  for (const entry of retired) {
    if (!RULE_ID.test(entry.id)) problems.push(`retired id \`${entry.id}\` is not kebab-case`);
    if (gone.has(entry.id)) problems.push(`retired id \`${entry.id}\` is listed twice`);
    gone.add(entry.id);
    if (seen.has(entry.id)) problems.push(`rule id \`${entry.id}\` was retired: ${entry.reason}`);
    if (!SENTENCE.test(entry.reason)) problems.push(`retired id \`${entry.id}\` does not say why`);
  }
  return problems;
}

/**
 * The registry of one rule set: refuses (throws, as a bug of eventry, when the module loads) a set with
 * a repeated or malformed id, a rule without description or hint, or an id that was retired.
 */
export function defineRuleSet<R extends RuleInfo, Side extends string>(
  spec: RuleSetSpec<Side>,
  rules: readonly R[],
  retired: readonly RetiredRule[] = [],
): RuleRegistry<R, Side> {
  const problems = ruleSetProblems(rules, retired);
  if (problems.length > 0) throw new Error(`the ${spec.name} rules are wrong: ${problems.join('; ')}`);
  const byId = new Map(rules.map((rule) => [rule.id, rule]));
  const retiredById = new Map(retired.map((entry) => [entry.id, entry]));
  return {
    name: spec.name,
    rules,
    byId,
    retired,
    retiredRule: (id) => retiredById.get(id),
    fixtures(id) {
      const folder = `${spec.fixtureRoot}/${id}`;
      const sides = Object.fromEntries(spec.sides.map((side) => [side, `${folder}/${side}`]));
      return { folder, sides: sides as Record<Side, string> };
    },
  };
}
