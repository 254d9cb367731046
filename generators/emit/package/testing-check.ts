import type { Catalogue, Group, Rule } from '../../model.js';
import { add } from '../../runtime/list.js';
import { defineTesting, RuleDataError, type TestingData } from '../../runtime/testing.js';
import type { ErrorItem, ValidationResult } from '../../runtime/types.js';
import { eventRuleChecks } from './validator/rules.js';

/** How many seeds of each `fake` variant the build draws for each event with rules. */
const BUILD_SEEDS = 8;

/** The compiled rules of one event, as its validator runs them after the schema. */
type RulesFunction = (data: unknown, options: unknown) => ErrorItem[] | undefined;

/**
 * Runs the group's test data for every event with rules, at build time, on fixed seeds: `fake` in each
 * variant and `invalid`, through the rule code the validators get (compiled here into a function, no
 * CEL interpreted). A rule the test data cannot keep fails the build (`rule-unsatisfiable`, located at
 * the rule), rather than the first test of a producer; a rule no payload breaks alone is the lint's.
 */
export function checkTestingRules(model: Catalogue, group: Group, data: TestingData): void {
  const check = compiledRuleCheck(model, data);
  if (check === undefined) return;
  const testing = defineTesting<Record<string, unknown>>(group.slug, data, undefined, check.check);
  for (const key of check.keys) {
    try {
      for (const variant of ['minimal', 'full', 'random'] as const)
        for (let seed = 0; seed < BUILD_SEEDS; seed++) testing.fake(key, { seed, variant });
    } catch (error) {
      if (error instanceof RuleDataError) throw new Error(located(model, key, error));
      throw error;
    }
  }
}

/**
 * The rules of the events of `data` that have some, compiled as their validators get them, behind a
 * `validate`-like check that runs no schema (test data draws schema-valid payloads); undefined when no
 * event has rules.
 */
export function compiledRuleCheck(
  model: Catalogue,
  data: TestingData,
): { keys: string[]; check: (key: string, payload: unknown) => ValidationResult } | undefined {
  const compiled = new Map<string, RulesFunction>();
  for (const [key, event] of Object.entries(data.events)) {
    if (event.r === undefined) continue;
    const checks = eventRuleChecks(model, key);
    if (checks !== undefined) compiled.set(key, new Function('add', `${checks.code}\nreturn rules;`)(add));
  }
  if (compiled.size === 0) return undefined;
  const check = (key: string, payload: unknown): ValidationResult => {
    const items = compiled.get(key)?.(payload, undefined);
    return items === undefined
      ? { valid: true }
      : { valid: false, error: { detail: 'rules', code: 'event_failed_validation', errors: items } };
  };
  return { keys: [...compiled.keys()], check };
}

/** The error at the rule's `file:line:column`, with its code. */
function located(model: Catalogue, key: string, error: RuleDataError): string {
  const name = error.rule ?? '';
  const dot = name.indexOf('.');
  const rules: Rule[] | undefined =
    dot === -1 ? model.events[key]?.rules : model.shapes[name.slice(0, dot)]?.rules;
  const rule = rules?.find((one) => one.name === (dot === -1 ? name : name.slice(dot + 1)));
  const where = rule ? `${rule.source.file}:${rule.source.line}:${rule.source.column}: ` : '';
  const text = error.message.replace(/^eventry: /, '').replace(/ \(rule_unsatisfiable\)\.$/, '.');
  return `${where}error rule-unsatisfiable: ${text}`;
}
