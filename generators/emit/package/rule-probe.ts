import type { Catalogue } from '../../model.js';
import { defineTesting, RuleDataError, type TestingApi, type TestingData } from '../../runtime/testing.js';
import { breaksAlone, type RuleCheck } from './rule-probe-confirm.js';
import { testingData } from './testing.js';
import { compiledRuleCheck } from './testing-check.js';

/** How many seeds of each `fake` variant the probe draws for each event with rules (as the build does). */
const PROBE_SEEDS = 8;

/**
 * What the group packages' test data found of one rule of one event: `fake` keeps no payload with it
 * (`unsatisfiable`), or `invalid` finds no payload that breaks it alone (`unbreakable`).
 */
export interface RuleDataVerdict {
  /** The event key the test data was drawn for. */
  event: string;
  /** The rule: its name for an event's own, `Shape.name` for a shape's. */
  rule: string;
  verdict: 'unsatisfiable' | 'unbreakable';
  /** The test data's own words (what it tried). */
  detail: string;
}

/**
 * Runs the test data of every event with rules as the packages will (`fake` in each variant on fixed
 * seeds, then `invalid`), through the rule code the validators get, and says which rules it could not
 * keep or break alone: what the lint's `rule-unsatisfiable` and `rule-unbreakable` report. `invalid`
 * stops at the first rule it cannot break, so the probe asks again without that rule's payloads until
 * every rule is broken or judged; a rule `fake` cannot keep ends the event's probe (`invalid` needs a
 * payload that keeps every rule to start from).
 */
export function probeRuleData(model: Catalogue): RuleDataVerdict[] {
  const verdicts: RuleDataVerdict[] = [];
  for (const group of model.groups) {
    if (!group.events.some((key) => hasRules(model, key))) continue;
    const data = testingData(model, group);
    const check = compiledRuleCheck(model, data);
    if (check === undefined) continue;
    for (const key of check.keys) verdicts.push(...probeEvent(model, group.slug, data, key, check.check));
  }
  return verdicts;
}

function hasRules(model: Catalogue, key: string): boolean {
  const event = model.events[key];
  return (event?.rules?.length ?? 0) > 0 || (event?.shapeRules?.length ?? 0) > 0;
}

/** The verdicts of the test data's runs for one event (none when it kept and broke every rule). */
function probeEvent(
  model: Catalogue,
  slug: string,
  data: TestingData,
  key: string,
  check: RuleCheck,
): RuleDataVerdict[] {
  const testing = defineTesting<Record<string, unknown>>(slug, data, undefined, check);
  const unsatisfiable = verdictOf(key, () => {
    for (const variant of ['minimal', 'full', 'random'] as const)
      for (let seed = 0; seed < PROBE_SEEDS; seed++) testing.fake(key, { seed, variant });
  });
  if (unsatisfiable !== null) return unsatisfiable ? [unsatisfiable] : [];
  const verdicts: RuleDataVerdict[] = [];
  const bases = basesOf(testing, key);
  let spec = data.events[key]!;
  while (spec.r !== undefined && spec.r.length > 0) {
    const asked: TestingData = { ...data, events: { ...data.events, [key]: spec } };
    const again = defineTesting<Record<string, unknown>>(slug, asked, undefined, check);
    const found = verdictOf(key, () => again.invalid(key));
    if (!found) break;
    // The random search missed it: a second look with the rule's own literals before saying so.
    if (!breaksAlone(model, key, data, check, found.rule, bases)) verdicts.push(found);
    // The same rule's items now name no rule of the list: `invalid` looks for the others' breakers.
    spec = { ...spec, r: spec.r.filter(([name]) => name !== found.rule) };
  }
  return verdicts;
}

/** Payloads that keep every rule, to make breakers from: `fake` in each variant on a few seeds. */
function basesOf(testing: TestingApi<Record<string, unknown>>, key: string): unknown[] {
  const bases: unknown[] = [];
  for (const variant of ['full', 'random', 'minimal'] as const)
    for (let seed = 0; seed < 3; seed++) bases.push(testing.fake(key, { seed, variant, maxItems: 2 }));
  return bases;
}

/**
 * What one run of the test data says: null when it ran through, the verdict when it stopped at a rule,
 * undefined when it stopped without naming one (every draw refused by the schema).
 */
function verdictOf(event: string, run: () => void): RuleDataVerdict | null | undefined {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof RuleDataError)) throw error;
    if (error.rule === undefined) return undefined;
    const detail = error.message.replace(/^eventry: /, '').replace(/ \(rule_un\w+\)/, '');
    const verdict = error.code === 'rule_unsatisfiable' ? 'unsatisfiable' : 'unbreakable';
    return { event, rule: error.rule, verdict, detail };
  }
}
