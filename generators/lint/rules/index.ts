import { defineRuleSet, type RuleRegistry } from '../../shared/rule-registry.js';
import type { LintFixtureSide, LintRule, RetiredLintRule } from '../rule.js';
import { dateWithoutFormat } from './date-without-format.js';
import { deprecatedWithoutReplacement } from './deprecated-without-replacement.js';
import { duplicateShape } from './duplicate-shape.js';
import { enumValueCase } from './enum-value-case.js';
import { eventKeyFormat } from './event-key-format.js';
import { fieldNameCase } from './field-name-case.js';
import { fieldNameMisspellingInContext } from './field-name-misspelling-in-context.js';
import { fieldNameNearDuplicate } from './field-name-near-duplicate.js';
import { fieldTypeMismatch } from './field-type-mismatch.js';
import { freeObjectWithShape } from './free-object-with-shape.js';
import { groupWithoutOwner } from './group-without-owner.js';
import { idTypeMismatch } from './id-type-mismatch.js';
import { missingDescription } from './missing-description.js';
import { personalDataUnclassified } from './personal-data-unclassified.js';
import { ruleUnbreakable } from './rule-unbreakable.js';
import { ruleUnsatisfiable } from './rule-unsatisfiable.js';
import { shapeNameCase } from './shape-name-case.js';
import { unusedShape } from './unused-shape.js';
import { versionGap } from './version-gap.js';
import { versionIdentical } from './version-identical.js';

/**
 * Rule ids no longer in use, each with why it was retired: the registry refuses to load when a rule
 * reuses one; a config or suppression naming one is told it was retired instead of "not a rule".
 */
export const RETIRED_LINT_RULE_IDS: readonly RetiredLintRule[] = [];

/**
 * The one registry of lint rules, in report order: naming, consistency across the catalogue, types,
 * versions, documentation, sensitive data, data rules. The rule kernel checks it: ids unique, kebab-case and never
 * a retired one.
 */
export const LINT_REGISTRY: RuleRegistry<LintRule, LintFixtureSide> = defineRuleSet(
  { name: 'lint', fixtureRoot: 'test/fixtures/lint', sides: ['bad', 'good'] },
  [
    eventKeyFormat,
    fieldNameCase,
    enumValueCase,
    shapeNameCase,
    fieldTypeMismatch,
    fieldNameNearDuplicate,
    fieldNameMisspellingInContext,
    duplicateShape,
    freeObjectWithShape,
    dateWithoutFormat,
    idTypeMismatch,
    versionIdentical,
    versionGap,
    deprecatedWithoutReplacement,
    unusedShape,
    missingDescription,
    personalDataUnclassified,
    groupWithoutOwner,
    ruleUnsatisfiable,
    ruleUnbreakable,
  ],
  RETIRED_LINT_RULE_IDS,
);

/** Every rule, in report order. */
export const LINT_RULES: readonly LintRule[] = LINT_REGISTRY.rules;

/** Rules by id. */
export const LINT_RULES_BY_ID: ReadonlyMap<string, LintRule> = LINT_REGISTRY.byId;
