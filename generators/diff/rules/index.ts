import { defineRuleSet, type RetiredRule, type RuleRegistry } from '../../shared/rule-registry.js';
import type { ModelChange } from '../diff.js';
import type { ChangeKind, DiffFixtureSide, Finding, Rule } from '../rule.js';
import { dataRuleAdded } from './data-rule-added.js';
import { dataRuleChanged } from './data-rule-changed.js';
import { dataRuleRemoved } from './data-rule-removed.js';
import { dataRuleTextChanged } from './data-rule-text-changed.js';
import { deprecationAdded } from './deprecation-added.js';
import { deprecationChanged } from './deprecation-changed.js';
import { deprecationRemoved } from './deprecation-removed.js';
import { descriptionChanged } from './description-changed.js';
import { enumAdded } from './enum-added.js';
import { enumRemoved } from './enum-removed.js';
import { enumValueAdded } from './enum-value-added.js';
import { enumValueRemoved } from './enum-value-removed.js';
import { eventAdded } from './event-added.js';
import { eventRemoved } from './event-removed.js';
import { eventRemovedWithoutDeprecation } from './event-removed-without-deprecation.js';
import { fieldRemoved } from './field-removed.js';
import { fieldRenamed } from './field-renamed.js';
import { formatAdded } from './format-added.js';
import { formatChanged } from './format-changed.js';
import { formatRemoved } from './format-removed.js';
import { objectClosed } from './object-closed.js';
import { objectOpened } from './object-opened.js';
import { optionalBecameRequired } from './optional-became-required.js';
import { optionalFieldAdded } from './optional-field-added.js';
import { requiredBecameOptional } from './required-became-optional.js';
import { requiredFieldAdded } from './required-field-added.js';
import { titleChanged } from './title-changed.js';
import { typeChanged } from './type-changed.js';

/** Every kind of change with the rules that classify it: at least one, so no change goes unclassified. */
export type RulesByKind = { readonly [K in ChangeKind]: readonly [Rule<K>, ...Rule<K>[]] };

/**
 * The one registry of diff rules, by the kind of change each classifies: a kind of change without a
 * rule, or a rule under a kind it cannot read, fails the build. In report order (event-level first,
 * then fields, then docs). Ids are stable: a retired rule's id goes to RETIRED_RULE_IDS, never to
 * another rule.
 */
export const RULES_BY_KIND: RulesByKind = {
  'event-added': [eventAdded],
  'event-removed': [eventRemoved, eventRemovedWithoutDeprecation],
  'openness-changed': [objectClosed, objectOpened],
  'deprecation-added': [deprecationAdded],
  'deprecation-removed': [deprecationRemoved],
  'field-added': [optionalFieldAdded, requiredFieldAdded],
  'field-removed': [fieldRemoved],
  'field-renamed': [fieldRenamed],
  'required-changed': [optionalBecameRequired, requiredBecameOptional],
  'type-changed': [typeChanged],
  'format-changed': [formatAdded, formatChanged, formatRemoved],
  'enum-changed': [enumValueRemoved, enumValueAdded, enumAdded, enumRemoved],
  'rule-changed': [dataRuleAdded, dataRuleChanged, dataRuleRemoved, dataRuleTextChanged],
  'deprecation-changed': [deprecationChanged],
  'text-changed': [titleChanged, descriptionChanged],
};

/**
 * The registry with each rule's kind erased, for the flat lists and the lookup: sound because a list
 * only ever receives changes of its own kind (classifyChanges looks it up by the change's kind).
 */
const ERASED = RULES_BY_KIND as unknown as Readonly<Partial<Record<ChangeKind, readonly Rule[]>>>;

/**
 * Rule ids no longer in use, each with why it was retired. The registry refuses to load when a rule
 * reuses one; an allow-list entry naming one is told it was retired instead of "not a rule".
 */
export const RETIRED_RULE_IDS: readonly RetiredRule[] = [];

/** The diff's rule set, checked by the rule kernel: ids unique, kebab-case and never a retired one. */
export const DIFF_RULES: RuleRegistry<Rule, DiffFixtureSide> = defineRuleSet(
  { name: 'diff', fixtureRoot: 'test/fixtures/diff', sides: ['before', 'after'] },
  Object.values(ERASED).flat(),
  RETIRED_RULE_IDS,
);

/** Every rule, in report order. */
export const RULES: readonly Rule[] = DIFF_RULES.rules;

/** The detail said of the shape itself: the change re-rooted at the shape, the same for every event it reaches. */
function shapeDetail(rule: Rule, change: ModelChange, via: { shape: string; attr: string | null }): string {
  if (change.kind === 'text-changed' && change.text === 'shape-description')
    return rule.check({ ...change, attr: null })!;
  if (change.kind === 'rule-changed') {
    // The rule as the shape writes it (over `this`), the same wherever the shape sits.
    const { before, after } = change;
    const written = {
      ...(before?.shape ? { before: before.shape.written } : {}),
      ...(after?.shape ? { after: after.shape.written } : {}),
    };
    return rule.check({
      ...change,
      ...written,
      attr: via.attr,
      event: via.shape,
      via: undefined,
    } as ModelChange)!;
  }
  const inShape = { ...change, attr: via.attr, event: via.shape, via: undefined } as ModelChange;
  if (inShape.kind === 'field-renamed' && change.kind === 'field-renamed')
    inShape.toAttr = join(via.attr, change.to.name);
  return rule.check(inShape)!;
}

/** `prefix.name` with the last segment of `path` replaced by `name` (the new name of a renamed field). */
function join(path: string | null, name: string): string {
  const at = path ? path.lastIndexOf('.') : -1;
  return at < 0 ? name : `${path!.slice(0, at)}.${name}`;
}

/** Rules by id. */
export const RULES_BY_ID: ReadonlyMap<string, Rule> = DIFF_RULES.byId;

/**
 * Classifies structural changes into findings: every rule of the change's kind that recognises it
 * reports it (an enum that lost one value and gained another gives two findings).
 */
export function classifyChanges(changes: readonly ModelChange[]): Finding[] {
  const findings: Finding[] = [];
  for (const change of changes) {
    const rules = ERASED[change.kind];
    // Only a value that bypassed the type gets here (the registry is exhaustive): a bug, said plainly.
    if (!rules) throw new Error(`no diff rule classifies a ${change.kind} change`);
    for (const rule of rules) {
      const detail = rule.check(change);
      if (detail === undefined) continue;
      findings.push({
        event: change.event,
        group: change.group,
        attr: change.attr,
        ...(change.kind === 'rule-changed' && change.reads.length > 0 ? { reads: change.reads } : {}),
        ...(change.via ? { via: { ...change.via, detail: shapeDetail(rule, change, change.via) } } : {}),
        rule: rule.id,
        severity: rule.severity,
        breaks: rule.breaks,
        detail,
        ...(change.location ? { location: change.location } : {}),
        ...(change.oldLocation ? { oldLocation: change.oldLocation } : {}),
      });
    }
  }
  return findings;
}
