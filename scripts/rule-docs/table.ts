import type { Rule } from '../../generators/diff/rule.js';
import { DIFF_RULES } from '../../generators/diff/rules/index.js';
import type { LintRule } from '../../generators/lint/rule.js';
import { LINT_REGISTRY } from '../../generators/lint/rules/index.js';
import type { RuleInfo, RuleRegistry } from '../../generators/shared/rule-registry.js';

/** Where the rule reference is committed, relative to the repository root. */
export const RULES_DOC = 'docs/rules.md';

/** A table cell: one line, its pipes escaped. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Whom a breaking diff finding breaks, as the table says it. */
const BREAKS: Record<Rule['breaks'], string> = {
  producers: 'producers',
  consumers: 'consumers',
  both: 'producers and consumers',
  none: '',
};

/** The retired ids of a set, or that there are none yet. */
function retiredSection(registry: RuleRegistry<RuleInfo>): string[] {
  if (registry.retired.length === 0) return ['No id has been retired yet.'];
  return [
    '| retired id | why |',
    '| --- | --- |',
    ...registry.retired.map((entry) => `| \`${entry.id}\` | ${cell(entry.reason)} |`),
  ];
}

function diffSection(): string[] {
  return [
    '## Diff rules (`eventry diff`, `check`, `version`)',
    '',
    'Each finding of the diff is one of these, in report order. A `breaking` finding blocks `check` unless',
    'an allow-list entry names it (`event-removed`, a removal after notice, is not blocked); `version`',
    'bumps a group package by its most serious finding: breaking major, non-breaking minor, docs patch.',
    '',
    '| rule | severity | breaks | what it finds | what to do |',
    '| --- | --- | --- | --- | --- |',
    ...DIFF_RULES.rules.map(
      (rule) =>
        `| \`${rule.id}\` | ${rule.severity} | ${BREAKS[rule.breaks]} | ${cell(rule.description)} | ${cell(rule.hint)} |`,
    ),
    '',
    ...retiredSection(DIFF_RULES),
  ];
}

function lintSection(): string[] {
  const pattern = (rule: LintRule) =>
    rule.pattern === undefined ? '' : ` Pattern: \`${cell(rule.pattern)}\`.`;
  return [
    '## Lint rules (`eventry lint`, `check`)',
    '',
    "The severity is the `recommended` preset's (`lint.rules` in eventry.config.yaml changes it; `strict`",
    'raises each one step). `eventry lint --list-rules` prints the same list.',
    '',
    'Data rules (`rules:`, CEL) are linted by `rule-unsatisfiable` and `rule-unbreakable`. A rule without',
    'a `message` and a rule reading an optional field without `has()` are not lint findings but load errors',
    '(`invalid-value`, `rule-unguarded-field`): one would ship an empty `detail` in the 400 body, the other',
    'a rule the Confluent client lets pass on an evaluation error; see',
    '[decision 0180](decisions/0180-rule-message-and-guards-are-load-errors.md).',
    '',
    '| rule | default | what it finds | what to do |',
    '| --- | --- | --- | --- |',
    ...LINT_REGISTRY.rules.map(
      (rule) =>
        `| \`${rule.id}\` | ${rule.severity} | ${cell(rule.description)}${pattern(rule)} | ${cell(rule.hint)} |`,
    ),
    '',
    ...retiredSection(LINT_REGISTRY),
  ];
}

/** The reference of every diff and lint rule, from the two registries (`npm run gen:rule-docs`). */
export function renderRuleDocs(): string {
  return [
    '# Rules',
    '',
    '<!-- Generated from generators/diff/rules/ and generators/lint/rules/ by `npm run gen:rule-docs`. Do not edit. -->',
    '',
    'Every rule id is stable and never reused: a rule taken out keeps its id in the retired list, and a',
    'setting that names it (an allow-list entry, `lint.rules`, a suppression) is told why. Each rule has',
    'its examples under `test/fixtures/diff/<id>/` (before, after) or `test/fixtures/lint/<id>/` (bad, good).',
    '',
    ...diffSection(),
    '',
    ...lintSection(),
    '',
  ].join('\n');
}
